import { redactSecrets, scrubSecretValues } from '../../config/redact.js';
import type { Message } from '../model/message.js';
import type { ModelResponse } from '../model/model.js';

/**
 * Message content on chat spans, in the OpenTelemetry GenAI message shape
 * (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`; see
 * docs/spans.md). Recorded only when content capture is on for the run.
 */
export interface ContentCapture {
  /** Secret values (from the environment) replaced by "[redacted]" wherever they appear. */
  secrets: readonly string[];
}

type Part =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: string };

interface GenAiMessage {
  role: 'user' | 'assistant' | 'tool';
  parts: Part[];
  finish_reason?: string;
}

/**
 * Each message's JSON, made once per run: every chat span of a run repeats the conversation so
 * far, and the loop only appends messages (it never changes one it has sent).
 */
const messageJson = new WeakMap<Message, { capture: ContentCapture; json: string }>();

/** The conversation the model is sent, as `gen_ai.input.messages` JSON. */
export function inputMessagesJson(messages: readonly Message[], capture: ContentCapture): string {
  const items = messages.map((message) => {
    const known = messageJson.get(message);
    if (known?.capture === capture) return known.json;
    // An array's JSON is its items' JSON joined by commas.
    const json = serialize([toGenAi(message)], capture).slice(1, -1);
    messageJson.set(message, { capture, json });
    return json;
  });
  return `[${items.join(',')}]`;
}

/** The model's answer, as `gen_ai.output.messages` JSON. */
export function outputMessagesJson(response: ModelResponse, capture: ContentCapture): string {
  const parts: Part[] = [];
  if (response.text) parts.push({ type: 'text', content: response.text });
  for (const call of response.toolCalls) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.args });
  return serialize([{ role: 'assistant', parts, finish_reason: response.finishReason.unified }], capture);
}

/** The system prompt, as `gen_ai.system_instructions` JSON. */
export function systemInstructionsJson(system: string, capture: ContentCapture): string {
  return JSON.stringify(scrubSecretValues([{ type: 'text', content: system }], capture.secrets));
}

function toGenAi(message: Message): GenAiMessage {
  if (message.role === 'tool') return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.tool_call_id, response: message.content }] };
  if (message.role === 'user') return { role: 'user', parts: [{ type: 'text', content: message.content }] };
  const parts: Part[] = message.content ? [{ type: 'text', content: message.content }] : [];
  for (const call of message.tool_calls ?? []) parts.push({ type: 'tool_call', id: call.tool_call_id, name: call.tool_name, arguments: call.input });
  return { role: 'assistant', parts };
}

function serialize(messages: GenAiMessage[], capture: ContentCapture): string {
  // Secret-named argument keys (`api_key`, `token`) lose their values; known secret values go everywhere.
  const redacted = messages.map((message) => ({
    ...message,
    parts: message.parts.map((part) => (part.type === 'tool_call' ? { ...part, arguments: redactSecrets(part.arguments) } : part)),
  }));
  return JSON.stringify(scrubSecretValues(redacted, capture.secrets));
}
