/** The bidirectional embeddings, overrides and isolates, as a regex character-class range. */
export const BIDI_CONTROLS = '\\u202a-\\u202e\\u2066-\\u2069';

/**
 * Characters a message must not print raw: C0 and C1 controls (ESC starts a terminal's escape
 * sequences), the line and paragraph separators, and the bidirectional embeddings, overrides and
 * isolates (a name could read as another, docs/report-format.md).
 */
const UNPRINTABLE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029${BIDI_CONTROLS}]`, 'g');

/** Whether `text` holds a character that must not reach a terminal raw. */
export function hasUnprintable(text: string): boolean {
  UNPRINTABLE.lastIndex = 0;
  return UNPRINTABLE.test(text);
}

/** `text` with each unprintable character written as its `\uXXXX` escape. */
export function escapeUnprintable(text: string): string {
  return text.replace(UNPRINTABLE, unicodeEscape);
}

/** `text` as a JSON string with every unprintable character escaped (`\u001b`, `\u202e`): safe to print. */
export function quoteText(text: string): string {
  // JSON.stringify escapes C0 controls itself (`\n`, `\u001b`); the rest it leaves raw.
  return escapeUnprintable(JSON.stringify(text));
}

/**
 * A whole message with every unprintable character escaped but its own line breaks and tabs: the
 * safety net behind the quoted values (quoteCapped), so a message cannot clear or recolour the
 * terminal even where some part of it was not quoted.
 */
export function escapeUnprintableInMessage(message: string): string {
  return message.replace(UNPRINTABLE, (char) => (char === '\n' || char === '\t' ? char : unicodeEscape(char)));
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
