import { printable } from './printable.js';

// Markdown and HTML punctuation that could turn a reason into markup in a job summary.
const MD_SPECIAL = /[\\`*_[\]<>&|]/g;

const REPLACEMENTS: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/**
 * Escapes text so Markdown renders it literally, on the line it is written on: line breaks
 * become `<br>`, since every place the report writes user text (a list item, a quote, a table
 * cell) is one line, and a raw newline would let a name start a heading or a link of its own.
 */
export function mdText(text: string): string {
  return printable(text)
    .replace(MD_SPECIAL, (char) => REPLACEMENTS[char] ?? `\\${char}`)
    .replace(/\r\n|\r|\n/g, '<br>');
}

/** Escapes text for a table cell: as mdText (a raw newline would end the row, a raw `|` start a new cell). */
export function mdCell(text: string): string {
  return mdText(text);
}
