import { compileHarnessRegex } from '../config/safe-regex.js';

/**
 * Error tokens: text in a tool result that means the call failed even though the tool
 * returned (Slack's `{"ok": false, "error": "not_in_channel"}` is the classic case).
 */

/** The default list (docs/verdicts.md, The test_run verdict). */
export const DEFAULT_ERROR_TOKENS: readonly string[] = [
  '"ok": false',
  'not_in_channel',
  'channel_not_found',
  'invalid_auth',
  'missing_scope',
  '"error": "<non-empty>"',
];

/** A compiled token: its text as written (for reasons) and a test. */
export interface ErrorToken {
  token: string;
  regex: RegExp;
}

const NON_EMPTY = '<non-empty>';
const cache = new Map<string, ErrorToken>();

/**
 * Compiles tokens. A token is literal text, except that spacing may vary (whitespace and the
 * space around a `:`: `"ok":false` matches `"ok": false`) and `<non-empty>` stands for any
 * non-empty JSON string content. `<non-empty>` next to optional spacing can backtrack
 * polynomially (`<non-empty>:<non-empty>` on 20,000 spaces), so tokens run on the linear-time
 * engine like every other pattern (docs/security.md), on the whole text.
 */
export function compileErrorTokens(tokens: readonly string[] = DEFAULT_ERROR_TOKENS): ErrorToken[] {
  return tokens.map((token) => {
    let compiled = cache.get(token);
    if (!compiled) {
      const source = token
        .split(NON_EMPTY)
        .map(literalSource)
        .join('(?:[^"\\\\]|\\\\.)+')
        .replace(/(\\s\*)+/g, '\\s*');
      compiled = { token, regex: compileHarnessRegex(source) };
      cache.set(token, compiled);
    }
    return compiled;
  });
}

/**
 * The most specific token found in `text`, or null. A result often holds several
 * (`{"ok": false, "error": "channel_not_found"}`): an error code (a token of word characters
 * only, `channel_not_found`) says most, then a `<non-empty>` token, named by the text it matched
 * (`"error": "rate_limited"`), then any other structural token (`"ok": false`); list order
 * breaks ties.
 */
export function findErrorToken(text: string | null, tokens: readonly ErrorToken[]): string | null {
  if (!text) return null;
  let best: { rank: number; name: string } | null = null;
  for (const { token, regex } of tokens) {
    const match = regex.exec(text);
    if (!match) continue;
    const rank = /^[\w-]+$/.test(token) ? 0 : token.includes(NON_EMPTY) ? 1 : 2;
    if (!best || rank < best.rank) best = { rank, name: rank === 1 ? match[0] : token };
  }
  return best?.name ?? null;
}

function literalSource(text: string): string {
  let out = '';
  for (const part of text.split(/(\s+|:)/)) {
    if (part === ':') out += '\\s*:\\s*';
    else if (/^\s+$/.test(part)) out += '\\s*';
    else out += part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}
