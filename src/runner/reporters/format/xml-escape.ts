import { printable } from './printable.js';

// Characters XML 1.0 forbids anywhere, even escaped: C0 controls other than tab, LF and CR,
// lone surrogates, U+FFFE and U+FFFF. ANSI colour codes in tool output are the usual source.
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text for element content or a quoted attribute and drops characters XML 1.0 forbids. */
export function xmlEscape(text: string): string {
  // printable() first so a colour code loses its `[31m` tail too, not only the ESC.
  return printable(text)
    .replace(INVALID_XML, '')
    .replace(/[&<>"']/g, (char) => ENTITIES[char]);
}

/**
 * xmlEscape for an attribute value: tabs and line breaks become character references,
 * because a parser normalises literal ones in attributes to spaces and the message would
 * lose its lines.
 */
export function xmlAttr(text: string): string {
  return xmlEscape(text).replace(/[\t\n\r]/g, (char) => `&#${char.charCodeAt(0)};`);
}
