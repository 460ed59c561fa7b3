import { clipToWidth, displayWidth, hasWide, splitAtWidth } from './display-width.js';

/**
 * Breaks one line of text into lines of at most `width` columns (display width: a CJK character
 * or an emoji takes two), each prefixed with `indent`: at spaces where it can, inside a word only
 * when the word alone is too long. At most `maxLines` lines; the last one ends with an ellipsis
 * when text was left over.
 */
export function wrapText(text: string, width: number, indent: string, maxLines = 12): string[] {
  const room = Math.max(10, width - indent.length);
  const lines: string[] = [];
  let rest = text;
  while (displayWidth(rest) > room && lines.length < maxLines) {
    const [fits] = splitAtWidth(rest, room);
    // A space right after a full line is a break too.
    const space = rest[fits.length] === ' ' ? fits.length : fits.lastIndexOf(' ');
    const cut = space > 0 && displayWidth(fits.slice(0, space)) > room / 2 ? space : fits.length;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (lines.length < maxLines) {
    if (rest) lines.push(rest);
  } else if (rest) {
    lines[lines.length - 1] = clipToWidth(`${lines[lines.length - 1]} ${rest}`, room);
  }
  return lines.map((line) => `${indent}${line}`);
}

/**
 * One table cell's text as lines of at most `width` columns joined by newlines: at spaces; a word
 * wider than the column is broken inside when `breakWords` is set or it holds wide (CJK) characters,
 * which break between any two; else it stays whole and the table ends it with an ellipsis.
 */
export function wrapCell(text: string, width: number, breakWords: boolean): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const joined = line ? `${line} ${word}` : word;
    if (displayWidth(joined) <= width) {
      line = joined;
      continue;
    }
    if (breakWords || hasWide(word)) {
      // The word starts on this line when it can and goes on in full-width pieces.
      let rest = joined;
      while (displayWidth(rest) > width) {
        const [head, tail] = splitAtWidth(rest, width);
        lines.push(head.trimEnd());
        rest = tail.trimStart();
      }
      line = rest;
      continue;
    }
    if (line) lines.push(line);
    line = word;
  }
  lines.push(line);
  return lines.join('\n');
}
