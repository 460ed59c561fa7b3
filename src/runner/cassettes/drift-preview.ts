import { canonicalJson } from '../../config/canonical-json.js';

/** Characters shown before the first difference, so the excerpt says where it is. */
const LEAD_CHARS = 20;
/** Marks a cut, outside a string's quotes: `..."piece"...`. */
const CUT = '...';

/**
 * Short renderings of a recorded and a current value that show where they differ (docs/cassettes.md,
 * Drift): a string is always a quoted JSON string, with `...` outside the quotes where it is cut;
 * two long values that differ past their start (a rubric's last word, a changed instruction) are
 * both cut from a little before their first differing character, not at the same start, which
 * would show two equal strings.
 */
export function previewDifference(recorded: unknown, actual: unknown, max = 80): [string, string] {
  if (typeof recorded === 'string' && typeof actual === 'string') return previewStrings(recorded, actual, max);
  if (recorded === undefined || actual === undefined || typeof recorded === 'string' || typeof actual === 'string') {
    return [preview(recorded, max), preview(actual, max)];
  }
  const [a, b] = [canonicalJson(recorded), canonicalJson(actual)];
  const first = firstDifference(a, b);
  if (first < max - CUT.length) return [cutText(a, 0, max), cutText(b, 0, max)];
  return [cutText(a, first - LEAD_CHARS, max), cutText(b, first - LEAD_CHARS, max)];
}

/** One value alone, from its start. */
function preview(value: unknown, max: number): string {
  if (value === undefined) return '(absent)';
  return typeof value === 'string' ? quotedExcerpt(value, 0, max).text : cutText(canonicalJson(value), 0, max);
}

/** Two strings: from their start when both show where they differ, else both from a little before it. */
function previewStrings(a: string, b: string, max: number): [string, string] {
  const first = firstDifference(a, b);
  const [headA, headB] = [quotedExcerpt(a, 0, max), quotedExcerpt(b, 0, max)];
  // The difference shows when each excerpt reaches past it, or ends where its string ends there.
  const shows = (head: { end: number }, text: string) => head.end > first || head.end === text.length;
  if (shows(headA, a) && shows(headB, b)) return [headA.text, headB.text];
  let start = Math.max(0, first - LEAD_CHARS);
  // Not inside a surrogate pair: the excerpt starts on a whole character.
  if (start > 0 && /[\uDC00-\uDFFF]/.test(a[start] ?? b[start] ?? '')) start--;
  return [quotedExcerpt(a, start, max).text, quotedExcerpt(b, start, max).text];
}

/**
 * `text` from `start` as a JSON string of at most `max` characters, marks included:
 * `..."piece"...`, each mark only where the text is cut; `end` is where the piece ends in `text`.
 */
function quotedExcerpt(text: string, start: number, max: number): { text: string; end: number } {
  const lead = start > 0 ? CUT : '';
  const rest = text.slice(start);
  const whole = JSON.stringify(rest);
  if (lead.length + whole.length <= max) return { text: `${lead}${whole}`, end: text.length };
  const budget = max - lead.length - 2 - CUT.length;
  let piece = '';
  let used = 0;
  for (const char of rest) {
    // An escaped character (\n, \", \u0000) counts as wide as it is shown.
    const width = JSON.stringify(char).length - 2;
    if (used + width > budget) break;
    piece += char;
    used += width;
  }
  return { text: `${lead}${JSON.stringify(piece)}${CUT}`, end: start + piece.length };
}

/** A non-string value's JSON from `start`, cut to `max` characters with `...` marks. */
function cutText(text: string, start: number, max: number): string {
  if (start <= 0) return text.length > max ? `${text.slice(0, max - CUT.length)}${CUT}` : text;
  const piece = text.slice(start, start + max - 2 * CUT.length);
  return `${CUT}${piece}${start + piece.length < text.length ? CUT : ''}`;
}

/** Index of the first character where `a` and `b` differ (the shorter one's length when one starts the other). */
function firstDifference(a: string, b: string): number {
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first++;
  return first;
}
