import type { Locator } from '../../config/assert-format.js';
// The module itself, not the verdicts index: test-run's start-up does not load every check kind.
import { validateExpectedValue } from '../../verdicts/args/validate-expected.js';
import type { HttpMock } from './http-mocks.js';

/** The keys of one answer; a mock gives them itself or in each item of `responses`. */
const RESPONSE_KEYS = ['status', 'json', 'body', 'headers', 'delay_ms'] as const;

/**
 * The rules for `mocks.http` a schema cannot say (already checked against it): a mock answers
 * with its own response keys or with `responses`, not both; an answer has `json` or `body`, not
 * both; `match` values are expected values whose matchers must be valid. `locate` takes paths
 * relative to the mock list.
 */
export function validateHttpMocks(mocks: readonly HttpMock[], locate: Locator): void {
  mocks.forEach((mock, index) => {
    if (mock.responses) {
      const mixed = RESPONSE_KEYS.find((key) => mock[key] !== undefined);
      if (mixed) {
        throw locate(
          [index, mixed],
          `a mock answers with "responses" (a sequence) or with its own ${RESPONSE_KEYS.join(', ')}, not both; move "${mixed}" into the responses`,
          true,
        );
      }
      mock.responses.forEach((response, position) => bodyOnce(response, [index, 'responses', position], locate));
    } else {
      bodyOnce(mock, [index], locate);
    }
    if (mock.match?.json !== undefined) validateExpectedValue(mock.match.json, [index, 'match', 'json'], locate);
    if (mock.match?.body !== undefined) {
      if (typeof mock.match.body !== 'string' && !isObject(mock.match.body)) {
        throw locate([index, 'match', 'body'], 'expected the request body text, or a matcher such as {$regex: "..."}');
      }
      validateExpectedValue(mock.match.body, [index, 'match', 'body'], locate);
    }
  });
}

function bodyOnce(response: { json?: unknown; body?: string }, at: (string | number)[], locate: Locator): void {
  if (response.json !== undefined && response.body !== undefined) {
    throw locate([...at, 'body'], 'an answer has "json" or "body" (text), not both', true);
  }
}

function isObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
