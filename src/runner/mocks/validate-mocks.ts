import type { Locator } from '../../config/assert-format.js';
import type { PathSegments } from '../../config/format-path.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
// The module itself, not the verdicts index: test-run's start-up does not load every check kind.
import { validateExpectedValue } from '../../verdicts/args/validate-expected.js';
import { headerProblems } from '../../engine/revision/header-checks.js';
import { quotedUrl } from '../../config/display-url.js';
import type { HttpMock } from './http-mocks.js';

/** The keys of one answer; a mock gives them itself or in each item of `responses`. */
const RESPONSE_KEYS = ['status', 'json', 'body', 'headers', 'delay_ms'] as const;

/**
 * The rules for `mocks.http` a schema cannot say (already checked against it): a mock answers
 * with its own response keys or with `responses`, not both; an answer has `json` or `body`, not
 * both; `match` values are expected values whose matchers must be valid; `headers` are ones fetch
 * can answer with (an HTTP token as name, Latin-1 text on one line as value); `url` is one a request
 * can have, or a `*` pattern of one. Every problem of every
 * mock is reported at once (ConfigErrors). `locate` takes paths relative to the mock list;
 * `checkable(path)` leaves out the fields a format problem already covers (a path relative to the
 * list, as `[0, 'headers']`): a bad `delay_ms` hides no problem of the same mock's headers,
 * matcher or responses (docs/cli.md, validate).
 */
export function validateHttpMocks(mocks: readonly HttpMock[], locate: Locator, checkable: (path: PathSegments) => boolean = () => true): void {
  const problems: ConfigError[] = [];
  mocks.forEach((mock, index) => {
    // Not a mapping: its format problem says so, and there are no fields to read.
    if (!isObject(mock)) return;
    const ok = (...path: PathSegments) => checkable([index, ...path]);
    const check = (step: () => void) => collectConfigErrors(problems, step);
    const urlProblem = ok('url') ? mockUrlProblem(mock.url) : undefined;
    if (urlProblem) problems.push(locate([index, 'url'], urlProblem));
    // Only the keys given are read for "both": it holds whatever the list's own problem.
    if (Array.isArray(mock.responses)) {
      const mixed = RESPONSE_KEYS.find((key) => mock[key] !== undefined);
      if (mixed) {
        problems.push(
          locate(
            [index, mixed],
            `a mock answers with "responses" (a sequence) or with its own ${RESPONSE_KEYS.join(', ')}, not both; move "${mixed}" into the responses`,
            true,
          ),
        );
      }
      mock.responses.forEach((response, position) => {
        if (!ok('responses', position)) return;
        check(() => bodyOnce(response, [index, 'responses', position], locate));
        problems.push(...headerProblems(response.headers, [index, 'responses', position, 'headers'], locate, { templated: false }));
      });
    } else if (mock.responses === undefined) {
      check(() => bodyOnce(mock, [index], locate));
      if (ok('headers')) problems.push(...headerProblems(mock.headers, [index, 'headers'], locate, { templated: false }));
    }
    if (mock.match?.json !== undefined && ok('match', 'json')) check(() => validateExpectedValue(mock.match!.json, [index, 'match', 'json'], locate));
    const body = mock.match?.body;
    if (body !== undefined && ok('match', 'body')) {
      if (typeof body !== 'string' && !isObject(body)) {
        problems.push(locate([index, 'match', 'body'], 'expected the request body text, or a matcher such as {$regex: "..."}'));
      } else {
        check(() => validateExpectedValue(body, [index, 'match', 'body'], locate));
      }
    }
  });
  throwConfigErrors(problems);
}

function bodyOnce(response: { json?: unknown; body?: string }, at: (string | number)[], locate: Locator): void {
  if (response.json !== undefined && response.body !== undefined) {
    throw locate([...at, 'body'], 'an answer has "json" or "body" (text), not both', true);
  }
}

function isObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Why `url` can match no request, or undefined: it must be an absolute http(s) URL once each `*`
// stands for some text (also none), or start with `*` to match any origin, and be written as fetch
// sends it, since requests are compared as sent (docs/formats.md, Mocks).
function mockUrlProblem(url: string): string | undefined {
  if (url.startsWith('*')) return patternProblem(url);
  const parses = ['x', '', 's'].some((fill) => {
    const filled = url.replaceAll('*', fill);
    const protocol = URL.canParse(filled) ? new URL(filled).protocol : undefined;
    return protocol === 'http:' || protocol === 'https:';
  });
  if (!parses) {
    return `expected an absolute http(s) URL, exact or with * wildcards (https://api.test/orders/*, or */orders/* for any origin), got ${quotedUrl(url)}: it can match no request`;
  }
  if (url.includes('*')) return patternProblem(url);
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return `expected a URL without user:password (fetch refuses to send one), got ${quotedUrl(url)}`;
  const sent = parsed.href;
  if (sent === url) return undefined;
  // A host in capitals, a default port, no path, a space or a non-ASCII character: fetch sends it otherwise.
  return `expected the URL as fetch sends it, ${quotedUrl(sent)}, got ${quotedUrl(url)}: as written it can match no request`;
}

/**
 * Why a `*` pattern can match no request, or undefined. It is not held to its sent form as a whole
 * (a `*` may stand for what fetch adds: `https://a.test*`), but a character fetch always escapes
 * never appears in a request, and an origin written without `*` must be written as fetch sends it.
 */
function patternProblem(url: string): string | undefined {
  if (/[\s"<>]|[^\x20-\x7e]/.test(url)) {
    return `expected a URL pattern as fetch sends URLs, got ${quotedUrl(url)}: it holds a character fetch always percent-encodes (a space, a quote, < or >, a non-ASCII letter), so it can match no request`;
  }
  // In the path (before any query), fetch escapes {, } and a backtick, and resolves . and .. segments.
  const query = url.search(/[?#]/);
  const path = query === -1 ? url : url.slice(0, query);
  if (/[{}`]/.test(path) || /\/\.\.?(\/|$)/.test(path)) {
    return `expected a URL pattern as fetch sends URLs, got ${quotedUrl(url)}: its path holds {, }, a backtick or a . or .. segment, which fetch escapes or resolves, so it can match no request`;
  }
  if (url.startsWith('*')) return undefined;
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  const origin = pathStart === -1 ? url : url.slice(0, pathStart);
  if (origin.includes('*') || !URL.canParse(origin)) return undefined;
  const sent = new URL(origin).origin;
  if (sent === origin) return undefined;
  return `expected the origin as fetch sends it, ${quotedUrl(sent)}, got ${quotedUrl(origin)} in ${quotedUrl(url)}: as written it can match no request`;
}
