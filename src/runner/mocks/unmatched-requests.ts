import { capEchoed } from '../../config/cap-text.js';
import { scrubCredentialShapes, type Redactor } from '../../config/redactor.js';
import type { TestRunResult } from '../test-run.js';
import type { UnmatchedRequest } from './http-mocks.js';

/**
 * `no mock matched POST https://... (hint), GET ...`: the requests no mock answered, as scenario
 * rows and test-run results report them (docs/formats.md, Mocks). The URLs may carry credentials
 * (`?api_key=`, `user:password@`): their values stay out, and each is capped.
 */
export function describeUnmatched(unmatched: readonly UnmatchedRequest[]): string {
  // A request sent again (a retried call) is listed once, with its count.
  const counts = new Map<string, number>();
  for (const { request, hint } of unmatched) {
    const text = capEchoed(scrubCredentialShapes(request)) + scrubCredentialShapes(hint);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const requests = [...counts].map(([text, count]) => (count > 1 ? `${text} (${count} times)` : text));
  return `no mock matched ${requests.join(', ')}`;
}

/**
 * A request no mock answered fails the run, whatever the agent made of the network error it got:
 * the reason names the request (docs/cli.md, test-run), then the failure it caused.
 */
export function unmatchedFails(result: TestRunResult, unmatched: readonly UnmatchedRequest[], redactor: Redactor | undefined): void {
  const message = `${describeUnmatched(unmatched)} (mocks.http)`;
  const cause = result.verdict === 'failed' ? `; ${result.verdict_reason}` : '';
  result.verdict = 'failed';
  result.verdict_reason = `${redactor ? redactor.text(message) : message}${cause}`;
}
