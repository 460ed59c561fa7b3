import { BIDI_CONTROLS } from '../../../config/quote-text.js';

// ANSI escape sequences (CSI: colours, cursor moves, screen clears) and the other C0/C1
// control characters except tab and line breaks. Reasons quote tool output and model text;
// printed raw they could recolour or rewrite the user's terminal.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]/g;
// Operating system commands (a window title: ESC ] 0 ; title BEL), ended by BEL or ESC \.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const OSC_SEQUENCE = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// Bidirectional embeddings, overrides and isolates reorder what follows them on screen (a name
// could read as another): they are shown as `<U+202E>`, so the text stays visible and honest.
const BIDI_CONTROL = new RegExp(`[${BIDI_CONTROLS}]`, 'g');

// A carriage return not ending a line takes the cursor back over it: what follows would print
// over what came before (`I deleted prod\rverdict: PASS`).
const LONE_CR = /\r(?!\n)/g;

/**
 * Removes ANSI sequences and control characters (keeps tab, LF and a CR before LF), shows a lone
 * CR and bidi controls as `<U+XXXX>`.
 */
export function printable(text: string): string {
  return text
    .replace(ANSI_SEQUENCE, '')
    .replace(OSC_SEQUENCE, '')
    .replace(CONTROL, '')
    .replace(LONE_CR, '<U+000D>')
    .replace(BIDI_CONTROL, (char) => `<U+${char.codePointAt(0)!.toString(16).toUpperCase()}>`);
}
