import { ConfigError } from './errors.js';

/**
 * A file's bytes as text, refusing bytes that are not UTF-8 (a spreadsheet's Latin-1 export):
 * decoded leniently they become U+FFFD, and the agent would be tested on other text than the
 * author wrote. `file` names it in the error, with the line and column of the first bad byte.
 */
export function utf8Text(bytes: Buffer, file: string): string {
  const text = bytes.toString('utf8');
  // Only a replacement character can mean a bad byte (one written in the file is valid UTF-8).
  if (!text.includes('\uFFFD')) return text;
  const offset = firstInvalidByte(bytes);
  if (offset < 0) return text;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const byte = bytes[offset].toString(16).toUpperCase().padStart(2, '0');
  throw new ConfigError(
    { file, line, column: offset - lineStart + 1 },
    `is not valid UTF-8 (byte 0x${byte}); save the file as UTF-8 (a Latin-1 or Windows-1252 export would change its text)`,
    'CONFIG_SYNTAX',
  );
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
function firstInvalidByte(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    // Overlong forms, surrogates and code points past U+10FFFF.
    const second = bytes[i + 1];
    if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f) || (lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f)) return i;
    i += length;
  }
  return -1;
}
