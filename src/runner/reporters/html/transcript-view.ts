import type { Message } from '../../../engine/model/message.js';
import { clip } from '../format/row-cells.js';
import { esc } from './escape.js';

/** At most this many messages of one transcript on the page; report.json keeps them all. */
export const TRANSCRIPT_MAX_MESSAGES = 100;
/** Longest message text shown; a tool result may be a whole file. */
const MESSAGE_MAX = 2000;

/**
 * A run's transcript as a collapsed list: what the user said, the model's text and tool calls
 * with arguments, and each tool result (after prompt security), numbered in order.
 */
export function transcriptView(transcript: readonly Message[] | undefined, fullReport = 'report.json'): string {
  if (!transcript?.length) return '';
  const shown = transcript.slice(0, TRANSCRIPT_MAX_MESSAGES);
  const items = shown.map((message) => `<li class="msg msg-${message.role}" data-role="${message.role}">${messageHtml(message)}</li>`);
  const more = transcript.length > shown.length ? `<p class="note">${transcript.length - shown.length} more messages are in ${fullReport}.</p>` : '';
  return `<details class="transcript"><summary>Transcript (${transcript.length} message${transcript.length === 1 ? '' : 's'})</summary><ol>${items.join('')}</ol>${more}</details>`;
}

function messageHtml(message: Message): string {
  if (message.role === 'user') return `<b>user</b> <span class="reason">${esc(clip(message.content, MESSAGE_MAX))}</span>`;
  if (message.role === 'tool') {
    const label = message.denied ? 'tool denied' : message.is_error ? 'tool error' : 'tool result';
    return `<b>${label}</b> <code>${esc(message.tool_name)}</code> <span class="reason mono">${esc(clip(message.content, MESSAGE_MAX))}</span>`;
  }
  const text = message.content ? ` <span class="reason">${esc(clip(message.content, MESSAGE_MAX))}</span>` : '';
  const calls = (message.tool_calls ?? []).map(
    (call) => `<div class="call">→ <code>${esc(call.tool_name)}(${esc(clip(JSON.stringify(call.input) ?? '', MESSAGE_MAX))})</code></div>`,
  );
  return `<b>assistant</b>${text}${calls.join('')}`;
}
