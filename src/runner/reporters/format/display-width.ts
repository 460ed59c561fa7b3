// How many terminal columns text takes (docs/cli.md, run, "Terminal width"): East Asian Wide and
// Fullwidth characters and emoji take two, combining marks and format characters none, the
// rest one. Counted per grapheme (what the terminal draws as one character), so a cut never
// splits a base character from its marks, a surrogate pair or an emoji sequence.

// eslint-disable-next-line no-control-regex -- the colour codes of ./ansi.ts take no columns
const SGR = /\u001b\[[0-9;]*m/y;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}\u1160-\u11ff]/u;
const EMOJI = /^\p{Emoji_Presentation}/u;
const EMOJI_BASE = /^\p{Emoji}/u;

// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt, merged where
// only unassigned code points lie between; emoji shown wide are matched by EMOJI instead.
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x3247],
  [0x3250, 0x4dbf],
  [0x4e00, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1aff0, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function isWide(codePoint: number): boolean {
  return WIDE.some(([from, to]) => codePoint >= from && codePoint <= to);
}

/** Columns one grapheme takes: 0, 1 or 2. */
function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  // An emoji shown as a picture (by default, or asked for by variation selector 16) is two wide.
  if (EMOJI.test(grapheme) || (grapheme.includes('\ufe0f') && EMOJI_BASE.test(grapheme))) return 2;
  return isWide(grapheme.codePointAt(0)!) ? 2 : 1;
}

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
    for (const { segment } of segmenter.segment(text.slice(plainFrom, end))) out.push({ text: segment, width: graphemeWidth(segment) });
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
  if (PRINTABLE_ASCII.test(text)) return text.length;
  return units(text).reduce((sum, unit) => sum + unit.width, 0);
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
