import { clip } from './row-cells.js';

/**
 * Breaks one line of text into lines of at most `width` characters, each prefixed with
 * `indent`: at spaces where it can, inside a word only when the word alone is too long.
 * At most `maxLines` lines; the last one ends with an ellipsis when text was left over.
 */
export function wrapText(text: string, width: number, indent: string, maxLines = 12): string[] {
  const room = Math.max(10, width - indent.length);
  const lines: string[] = [];
  let rest = text;
  while (rest.length > room && lines.length < maxLines) {
    const space = rest.lastIndexOf(' ', room);
    const cut = space > room / 2 ? space : room;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (lines.length < maxLines) {
    if (rest) lines.push(rest);
  } else if (rest) {
    lines[lines.length - 1] = clip(`${lines[lines.length - 1]} ${rest}`, room);
  }
  return lines.map((line) => `${indent}${line}`);
}
