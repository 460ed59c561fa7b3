import { describeValue } from '../../config/describe-value.js';
import type { Message } from '../model/message.js';
import type { ToolDefinition } from '../model/model.js';

/** A model request as an external agent sent it to the bridge, in the engine's types. */
export interface WireRequest {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  /** The model name the client asked for (echoed in the answer). */
  model: string;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`: a last chunk carries the usage. */
  includeUsage: boolean;
}

/** A request the bridge cannot read: answered with HTTP 400 in the API's own error shape. */
export class WireError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'WireError';
  }
}

/** Reads `value` as an object or fails with a WireError naming `what`. */
export function objectAt(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new WireError(`${what} must be an object, got ${describeValue(value)}`);
  return value as Record<string, unknown>;
}

/** Reads `value` as an array or fails with a WireError naming `what`. */
export function arrayAt(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new WireError(`${what} must be an array, got ${describeValue(value)}`);
  return value;
}

/** Reads `value` as a string or fails with a WireError naming `what`. */
export function stringAt(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new WireError(`${what} must be a string, got ${describeValue(value)}`);
  return value;
}

/**
 * Text of a content given as a string or as parts `[{type: 'text', text}]`. Parts of the
 * `otherTypes` (images, documents: the transcript holds text) are left out; a part of any other
 * type is refused, so nothing the agent sent is dropped unnoticed.
 */
export function textOf(content: unknown, what: string, otherTypes: readonly string[] = []): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new WireError(`${what} must be a string or an array, got ${describeValue(content)}`);
  return content
    .map((part, index) => partOf(part, `${what}[${index}]`, ['text', ...otherTypes]))
    .map((part, index) => (part.type === 'text' ? stringAt(part.text, `${what}[${index}].text`) : ''))
    .join('');
}

/** Reads a content part (block) whose `type` is one of `types`, or fails naming them. */
export function partOf(value: unknown, what: string, types: readonly string[]): Record<string, unknown> {
  const part = objectAt(value, what);
  if (typeof part.type !== 'string' || !types.includes(part.type))
    throw new WireError(`${what}.type must be one of ${types.map((type) => JSON.stringify(type)).join(', ')}, got ${describeValue(part.type)}`);
  return part;
}

/** One server-sent event frame. */
export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}
