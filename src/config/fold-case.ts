/**
 * Rewrites a pattern meant for the `i` flag into one without it (`a` -> `[aA]`), so it can run
 * on V8's linear-time engine, which does not take `i` (docs/security.md). Letters outside
 * classes become two-letter classes; inside a class, a letter gains its other case and an
 * ASCII range of one case gains the other (`a-f` -> `a-fA-F`). Escapes (`\w`, `\x41`) and group
 * names are kept as written. Folding is per character (`toLowerCase` / `toUpperCase` of one
 * UTF-16 unit), which covers ASCII and most single-character letters.
 */
export function foldCase(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const escape = escapeAt(pattern, i);
      out += escape;
      i += escape.length - 1;
    } else if (ch === '[') {
      const end = classEnd(pattern, i);
      out += foldClass(pattern.slice(i, end));
      i = end - 1;
    } else if (pattern.startsWith('(?<', i) && !/^\(\?<[=!]/.test(pattern.slice(i, i + 4))) {
      // A named group: its name is not text to match.
      const close = pattern.indexOf('>', i);
      out += pattern.slice(i, close + 1);
      i = close;
    } else {
      const other = otherCase(ch);
      out += other ? `[${ch}${other}]` : ch;
    }
  }
  return out;
}

/** The same letter in the other case, or null when `ch` has no single-character other case. */
function otherCase(ch: string): string | null {
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  if (lower === upper || lower.length !== 1 || upper.length !== 1) return null;
  return ch === lower ? upper : lower;
}

/** The escape at `at`, whole: `\x41`, `\u0041`, `\cJ`, else a backslash and one character. */
function escapeAt(pattern: string, at: number): string {
  const next = pattern[at + 1] ?? '';
  const length = next === 'x' ? 4 : next === 'u' ? 6 : next === 'c' ? 3 : 2;
  return pattern.slice(at, at + length);
}

function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++; // a leading `]` is literal
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i + 1;
}

function foldClass(text: string): string {
  const negated = text[1] === '^';
  const body = text.slice(negated ? 2 : 1, -1);
  let extra = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') {
      i += escapeAt(body, i).length - 1;
      continue;
    }
    const from = body[i];
    if (body[i + 1] === '-' && i + 2 < body.length && body[i + 2] !== '\\') {
      const to = body[i + 2];
      const fromOther = otherCase(from);
      const toOther = otherCase(to);
      if (/[a-z]/i.test(from) && /[a-z]/i.test(to) && fromOther && toOther && (from === from.toLowerCase()) === (to === to.toLowerCase())) {
        extra += `${fromOther}-${toOther}`;
      }
      i += 2;
      continue;
    }
    const other = otherCase(from);
    if (other) extra += other;
  }
  return `[${negated ? '^' : ''}${body}${extra}]`;
}
