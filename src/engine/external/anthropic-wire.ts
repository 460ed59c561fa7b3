import type { ModelResponse, ToolDefinition } from '../model/model.js';
import type { Message, ToolCallPart } from '../model/message.js';
import { describeValue } from '../../config/describe-value.js';
import { arrayAt, objectAt, partOf, sseFrame, stringAt, textOf, WireError, type WireRequest } from './wire-request.js';
import { checkSettings, type SettingKind } from './wire-settings.js';

/**
 * Anthropic Messages on the wire (`POST /v1/messages`), both ways: the agent's request into the
 * engine's types (tool_result blocks become tool messages, `is_error` kept), the model's answer
 * back as a message or an SSE event stream.
 */

/** The request's settings and their types (Messages API reference); others are not read. */
const SETTINGS: Record<string, SettingKind> = {
  model: 'non-empty string',
  max_tokens: 'whole number 1 or more',
  stream: 'boolean',
  temperature: 'number from 0 to 1',
  top_p: 'number from 0 to 1',
  top_k: 'whole number',
  stop_sequences: 'array of strings',
  tool_choice: 'object',
  metadata: 'object',
  thinking: 'object',
};
/** The settings the API refuses a request without. */
const REQUIRED = ['model', 'max_tokens'];

// Block types each role may send; images, documents, thinking and the blocks of Anthropic's own
// server tools (web search, code execution, MCP connector) are left out of the transcript (text only).
const USER_BLOCKS = ['text', 'tool_result', 'image', 'document', 'search_result', 'container_upload'];
const SERVER_TOOL_BLOCKS = [
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
];
const ASSISTANT_BLOCKS = ['text', 'tool_use', 'thinking', 'redacted_thinking', ...SERVER_TOOL_BLOCKS];
const TOOL_RESULT_PARTS = ['image', 'document'];

/** Reads a Messages request body. */
export function parseAnthropicRequest(body: unknown): WireRequest {
  const root = objectAt(body, 'the request body');
  checkSettings(root, SETTINGS, '', REQUIRED);
  const messages: Message[] = [];
  const names = new Map<string, string>();
  arrayAt(root.messages, 'messages').forEach((item, index) => {
    const at = `messages[${index}]`;
    const message = objectAt(item, at);
    if (message.role !== 'user' && message.role !== 'assistant')
      throw new WireError(`${at}.role must be "user" or "assistant"; got ${JSON.stringify(message.role)}`);
    if (typeof message.content !== 'string' && !Array.isArray(message.content))
      throw new WireError(`${at}.content must be a string or an array, got ${describeValue(message.content)}`);
    const blocks: unknown[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (message.role === 'assistant') {
      const text: string[] = [];
      const calls: ToolCallPart[] = [];
      blocks.forEach((value, blockIndex) => {
        const block = partOf(value, `${at}.content[${blockIndex}]`, ASSISTANT_BLOCKS);
        if (block.type === 'text') text.push(stringAt(block.text, `${at}.content[${blockIndex}].text`));
        // Left out of the transcript, but a thinking block without its text is refused by the API.
        if (block.type === 'thinking') stringAt(block.thinking, `${at}.content[${blockIndex}].thinking`);
        if (block.type === 'tool_use') {
          const call = {
            tool_call_id: stringAt(block.id, `${at}.content[${blockIndex}].id`),
            tool_name: stringAt(block.name, `${at}.content[${blockIndex}].name`),
            input: block.input ?? {},
          };
          names.set(call.tool_call_id, call.tool_name);
          calls.push(call);
        }
      });
      messages.push(calls.length ? { role: 'assistant', content: text.join(''), tool_calls: calls } : { role: 'assistant', content: text.join('') });
      return;
    }
    const text: string[] = [];
    blocks.forEach((value, blockIndex) => {
      const blockAt = `${at}.content[${blockIndex}]`;
      const block = partOf(value, blockAt, USER_BLOCKS);
      if (block.type === 'text') text.push(stringAt(block.text, `${blockAt}.text`));
      if (block.type === 'tool_result') {
        const id = stringAt(block.tool_use_id, `${blockAt}.tool_use_id`);
        checkSettings(block, { is_error: 'boolean' }, `${blockAt}.`);
        messages.push({
          role: 'tool',
          tool_call_id: id,
          tool_name: names.get(id) ?? '',
          content: textOf(block.content, `${blockAt}.content`, TOOL_RESULT_PARTS),
          is_error: block.is_error === true,
        });
      }
    });
    if (text.length) messages.push({ role: 'user', content: text.join('') });
  });
  const tools =
    root.tools === undefined || root.tools === null ? [] : arrayAt(root.tools, 'tools').map((tool, index) => toolDefinition(tool, `tools[${index}]`));
  return {
    system: textOf(root.system, 'system'),
    messages,
    tools,
    model: root.model as string,
    stream: root.stream === true,
    includeUsage: true,
  };
}

function toolDefinition(value: unknown, at: string): ToolDefinition {
  const tool = objectAt(value, at);
  return {
    name: stringAt(tool.name, `${at}.name`),
    description: typeof tool.description === 'string' ? tool.description : '',
    parameters: tool.input_schema === undefined ? { type: 'object' } : objectAt(tool.input_schema, `${at}.input_schema`),
  };
}

function stopReason(response: ModelResponse): string {
  const unified = response.finishReason.unified;
  if (unified === 'tool_calls') return 'tool_use';
  if (unified === 'length') return 'max_tokens';
  if (unified === 'content_filter') return 'refusal';
  return 'end_turn';
}

function contentBlocks(response: ModelResponse): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  if (response.text) blocks.push({ type: 'text', text: response.text });
  for (const call of response.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args ?? {} });
  return blocks;
}

/** A `message` object for the answer. */
export function anthropicMessage(response: ModelResponse, request: WireRequest, id: string): object {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: response.responseModel ?? request.model,
    content: contentBlocks(response),
    stop_reason: stopReason(response),
    stop_sequence: null,
    usage: { input_tokens: response.usage.input_tokens, output_tokens: response.usage.output_tokens },
  };
}

/** The answer as Messages streaming events (message_start ... message_stop). */
export function anthropicStream(response: ModelResponse, request: WireRequest, id: string): string[] {
  const frames = [
    sseFrame(
      {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: response.responseModel ?? request.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: response.usage.input_tokens, output_tokens: 0 },
        },
      },
      'message_start',
    ),
  ];
  contentBlocks(response).forEach((block, index) => {
    const event = (data: object, name: string) => frames.push(sseFrame({ type: name, index, ...data }, name));
    if (block.type === 'text') {
      event({ content_block: { type: 'text', text: '' } }, 'content_block_start');
      event({ delta: { type: 'text_delta', text: block.text } }, 'content_block_delta');
    } else {
      event({ content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }, 'content_block_start');
      event({ delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }, 'content_block_delta');
    }
    event({}, 'content_block_stop');
  });
  frames.push(
    sseFrame(
      { type: 'message_delta', delta: { stop_reason: stopReason(response), stop_sequence: null }, usage: { output_tokens: response.usage.output_tokens } },
      'message_delta',
    ),
  );
  frames.push(sseFrame({ type: 'message_stop' }, 'message_stop'));
  return frames;
}

/** An error body in Anthropic's shape. */
export function anthropicError(message: string, status: number): object {
  return { type: 'error', error: { type: status === 400 ? 'invalid_request_error' : 'api_error', message } };
}
