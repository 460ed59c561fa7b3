import { lineColumnAt } from './number-checks.js';

/** Where JSON.parse failed and why, without the "at position N" that says it in characters. */
export interface JsonSyntaxProblem {
  line?: number;
  column?: number;
  reason: string;
}

/**
 * Turns JSON.parse's SyntaxError into a line and column of `text`, so every JSON file error reads
 * `file:line:col`. V8 names the position only for some errors ("Unexpected token ',', "[,]" is not
 * valid JSON" has none), so the position is found by scanning the text.
 */
export function jsonSyntaxProblem(text: string, error: unknown): JsonSyntaxProblem {
  const message = error instanceof Error ? error.message : String(error);
  const stated = /at position (\d+)/.exec(message);
  const offset = stated ? Number(stated[1]) : firstJsonError(text);
  const reason = jsonErrorReason(message.replace(/ in JSON at position \d+.*$/s, ''));
  return offset === undefined ? { reason } : { ...lineColumnAt(text, offset), reason };
}

/**
 * JSON.parse's message without the stretch of text V8 quotes (`Unexpected token 's', "sk-live-ab"...
 * is not valid JSON`): the file may be one a scenario or an agent named that holds a key
 * (docs/security.md, Hostile files); its line and column say where. On one line.
 */
export function jsonErrorReason(message: string): string {
  return message.replace(/,\s*"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '').replace(/\s*\n\s*/g, ' ');
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// JSON strings hold no raw control characters (U+0000 to U+001F): they must be escaped.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** The offset of the first character that makes `text` invalid JSON (text.length when it ends early); undefined when valid. */
function firstJsonError(text: string): number | undefined {
  let at = 0;
  const skip = () => {
    while (at < text.length && WHITESPACE.has(text[at])) at++;
  };
  const token = (pattern: RegExp): boolean => {
    pattern.lastIndex = at;
    if (!pattern.test(text)) return false;
    at = pattern.lastIndex;
    return true;
  };
  // Iterative, so a deeply nested file cannot overflow the stack: `stack` holds the open brackets.
  const stack: string[] = [];
  let expectValue = true;
  for (;;) {
    skip();
    if (expectValue) {
      const char = text[at];
      if (char === '{' || char === '[') {
        stack.push(char);
        at++;
        skip();
        if (text[at] === (char === '{' ? '}' : ']')) {
          stack.pop();
          at++;
          expectValue = false;
          continue;
        }
        if (char === '{' && !(token(STRING) && (skip(), text[at] === ':'))) return at;
        if (char === '{') at++;
        continue;
      }
      if (!(token(STRING) || token(NUMBER) || ['true', 'false', 'null'].some((word) => text.startsWith(word, at) && ((at += word.length), true)))) return at;
      expectValue = false;
      continue;
    }
    if (!stack.length) return at < text.length ? at : undefined;
    const open = stack[stack.length - 1];
    if (text[at] === (open === '{' ? '}' : ']')) {
      stack.pop();
      at++;
      continue;
    }
    if (text[at] !== ',') return at;
    at++;
    skip();
    if (open === '{') {
      if (!token(STRING)) return at;
      skip();
      if (text[at] !== ':') return at;
      at++;
    }
    expectValue = true;
  }
}
