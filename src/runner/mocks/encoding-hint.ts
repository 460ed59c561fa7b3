import { capEchoed } from '../../config/cap-text.js';
import { wildcardMatch } from '../../config/wildcard-match.js';

const ESCAPE = /%[0-9A-Fa-f]{2}/g;

/**
 * For the "no mock matched" error: when a mock's URL would match `url` if only their
 * percent-encoding agreed (`repos/octo%2Fhello` against `repos/octo/hello`), a hint naming the
 * mock and the escapes that differ; otherwise "". The usual cause is an http tool putting an
 * `owner/repo` value into its URL with `{{ args.x }}`, which encodes `/`.
 */
export function encodingHint(mocks: ReadonlyArray<{ method?: string; url: string }>, method: string, url: string): string {
  const decodedUrl = decodeEscapes(url);
  for (const { method: mockMethod, url: mockUrl } of mocks) {
    if (mockMethod && mockMethod.toUpperCase() !== method.toUpperCase()) continue;
    const decodedMock = decodeEscapes(mockUrl);
    const same = mockUrl.includes('*') ? wildcardMatch(decodedMock, decodedUrl) : decodedMock === decodedUrl;
    if (!same) continue;
    const differences = [
      ...onlyIn(url, mockUrl).map((escape) => `the URL has ${escape} where the mock has ${shown(escape)}`),
      ...onlyIn(mockUrl, url).map((escape) => `the mock has ${escape} where the URL has ${shown(escape)}`),
    ];
    return ` (did you mean the mock "${capEchoed(mockUrl)}"? it differs only in percent-encoding: ${differences.join(', ') || 'escapes written differently'}${slashAdvice(url, mockUrl)})`;
  }
  return '';
}

/**
 * What to do about a "/" the URL encodes as %2F: in the path, the tool's `| path` filter keeps it;
 * in the query (where that filter is refused), the mock is the one to change.
 */
function slashAdvice(url: string, mockUrl: string): string {
  if (!onlyIn(url, mockUrl).includes('%2F')) return '';
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  return /%2F/i.test(path)
    ? '; to keep "/" in a path value, write {{ args.<name> | path }} in the tool\'s url'
    : '; in a query value "/" is sent as %2F: write %2F in the mock\'s url';
}

/** An escape's character as the hint shows it: quoted when it would not be seen (a space, a control). */
function shown(escape: string): string {
  const character = decodeEscapes(escape);
  const code = character.charCodeAt(0);
  return character.trim() === '' || code < 0x20 || code === 0x7f ? JSON.stringify(character) : character;
}

/** The distinct escapes (upper-cased) of `text` that `other` does not hold. */
function onlyIn(text: string, other: string): string[] {
  const theirs = new Set((other.match(ESCAPE) ?? []).map((escape) => escape.toUpperCase()));
  return [...new Set((text.match(ESCAPE) ?? []).map((escape) => escape.toUpperCase()))].filter((escape) => !theirs.has(escape));
}

/** Each `%XX` escape decoded to its character; a malformed sequence stays as it is. */
function decodeEscapes(text: string): string {
  return text.replace(ESCAPE, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
}
