import type { Message } from '../../model/message.js';
import type { ToolDefinition } from '../../model/model.js';

/** The registry name this provider's kept content is tagged with. */
export const RESPONSES_PROVIDER = 'openai-responses';

type Item = Record<string, unknown>;

/**
 * The transcript as Responses API input items: user and assistant messages, `function_call`
 * and `function_call_output` items. An assistant turn that came with reasoning goes back as the
 * output items the API sent (reasoning, then the items that follow it, with their ids). When the
 * response is not stored (`store: false`) the API cannot look ids up, so they are dropped and
 * reasoning travels as its `encrypted_content`.
 */
export function toInputItems(messages: readonly Message[], stored: boolean): Item[] {
  const out: Item[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        const kept = message.provider_content;
        if (kept?.provider === RESPONSES_PROVIDER) {
          out.push(...kept.items.map((item) => (stored ? item : withoutId(item))));
          break;
        }
        if (message.content !== '') out.push({ role: 'assistant', content: message.content });
        for (const call of message.tool_calls ?? []) {
          out.push({ type: 'function_call', call_id: call.tool_call_id, name: call.tool_name, arguments: JSON.stringify(call.input ?? {}) });
        }
        break;
      }
      case 'tool':
        out.push({ type: 'function_call_output', call_id: message.tool_call_id, output: message.content });
        break;
    }
  }
  return out;
}

/**
 * A function tool of the Responses API. `strict` is sent as false: the API's default (true)
 * demands every property be required and no others allowed, which most tool schemas are not;
 * agentcheck validates the arguments against the schema itself (docs/formats.md, Tools).
 */
export function toResponsesTool(tool: ToolDefinition): Item {
  return { type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false };
}

function withoutId(item: Item): Item {
  const { id: _id, ...rest } = item;
  return rest;
}
