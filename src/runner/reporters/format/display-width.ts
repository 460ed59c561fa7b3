// How many terminal columns text takes (docs/cli.md, run, "Terminal width"), measured by
// string-width, the measure cli-table3 pads its cells with: so a cell wrapped or cut here fills
// its column exactly as the table draws it (East Asian Wide and Fullwidth characters and emoji
// take two columns, combining diacritics and control characters none). Text is cut per grapheme (what
// the terminal draws as one character), so a cut never splits a base character from its marks,
// a surrogate pair or an emoji sequence.
import stringWidth from 'string-width';

// eslint-disable-next-line no-control-regex -- the colour codes of ./ansi.ts take no columns
const SGR = /\u001b\[[0-9;]*m/y;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// Made on first use: creating it loads ICU's break rules (about 9 ms), and plain ASCII never needs it.
let segmenter: Intl.Segmenter | undefined;

/** One unit of text and its columns: a grapheme, or a colour code taking none. */
interface Unit {
  text: string;
  width: number;
}

/** The text as graphemes and colour codes, in order. */
function units(text: string): Unit[] {
  const out: Unit[] = [];
  let plainFrom = 0;
  const flush = (end: number) => {
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    for (const { segment } of segmenter.segment(text.slice(plainFrom, end))) out.push({ text: segment, width: stringWidth(segment) });
  };
  for (let i = text.indexOf('\u001b'); i >= 0; i = text.indexOf('\u001b', i + 1)) {
    SGR.lastIndex = i;
    const match = SGR.exec(text);
    if (!match) continue;
    flush(i);
    out.push({ text: match[0], width: 0 });
    plainFrom = i + match[0].length;
    i = plainFrom - 1;
  }
  flush(text.length);
  return out;
}

/** Terminal columns `text` takes (one line; colour codes take none). */
export function displayWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/**
 * `text` split where its head is as wide as fits in `width` columns: [head, rest]. The head takes
 * at least one character when `width` is positive, so that a loop over the rest always ends.
 */
export function splitAtWidth(text: string, width: number): [string, string] {
  const least = width > 0 ? 1 : 0;
  if (PRINTABLE_ASCII.test(text)) return [text.slice(0, Math.max(width, least)), text.slice(Math.max(width, least))];
  let used = 0;
  let end = 0;
  let taken = 0;
  for (const unit of units(text)) {
    if (used + unit.width > width && taken >= least) break;
    used += unit.width;
    end += unit.text.length;
    if (unit.width) taken++;
  }
  return [text.slice(0, end), text.slice(end)];
}

/** `text` cut to `width` columns, ending with an ellipsis where it was cut. */
export function clipToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  return `${splitAtWidth(text, Math.max(0, width - 1))[0]}…`;
}

/** True when some character of `text` takes two columns (CJK text wraps between any two of them). */
export function hasWide(text: string): boolean {
  return !PRINTABLE_ASCII.test(text) && units(text).some((unit) => unit.width === 2);
}
