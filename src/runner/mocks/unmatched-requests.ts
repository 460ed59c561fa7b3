import { capEchoed } from '../../config/cap-text.js';
import { scrubCredentialShapes } from '../../config/redactor.js';
import type { UnmatchedRequest } from './http-mocks.js';

/**
 * `no mock matched POST https://... (hint), GET ...`: the requests no mock answered, as scenario
 * rows and test-run results report them (docs/formats.md, Mocks). The URLs may carry credentials
 * (`?api_key=`, `user:password@`): their values stay out, and each is capped.
 */
export function describeUnmatched(unmatched: readonly UnmatchedRequest[]): string {
  const requests = unmatched.map(({ request, hint }) => capEchoed(scrubCredentialShapes(request)) + scrubCredentialShapes(hint));
  return `no mock matched ${requests.join(', ')}`;
}
