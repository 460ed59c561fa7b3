import type { FinishReason, ModelResponse, ToolDefinition } from '../model/model.js';
import type { Message, ToolCallPart } from '../model/message.js';
import { hasErrorText } from '../tools/error-field.js';
import { arrayAt, objectAt, sseFrame, stringAt, textOf, WireError, type WireRequest } from './wire-request.js';
import { checkSettings, type SettingKind } from './wire-settings.js';

/**
 * OpenAI Chat Completions on the wire (`POST /v1/chat/completions`), both ways: the agent's
 * request into the engine's types, the model's answer back as a completion or an SSE stream.
 */

/** The request's settings and their types (Chat Completions API reference); others are not read. */
const SETTINGS: Record<string, SettingKind> = {
  model: 'non-empty string',
  stream: 'boolean',
  stream_options: 'object',
  temperature: 'number from 0 to 2',
  top_p: 'number from 0 to 1',
  max_tokens: 'whole number 1 or more',
  max_completion_tokens: 'whole number 1 or more',
  n: 'whole number',
  seed: 'whole number',
  presence_penalty: 'number',
  frequency_penalty: 'number',
  stop: 'string or array of strings',
  parallel_tool_calls: 'boolean',
  tool_choice: 'string or object',
  user: 'string',
};

// Parts besides text each role may send (images, audio, files are left out of the transcript).
const USER_PARTS = ['image_url', 'input_audio', 'file'];
const ASSISTANT_PARTS = ['refusal'];
/** The settings the API refuses a request without. */
const REQUIRED = ['model'];

/** Whether an OpenAI tool message reports a failure: `is_error: true`, a JSON object with a non-empty `error` string, or text starting with "Error" (docs/external-agents.md). */
export function openAiToolError(message: Record<string, unknown>, content: string): boolean {
  if (message.is_error === true) return true;
  if (/^\s*error\b/i.test(content)) return true;
  try {
    const parsed: unknown = JSON.parse(content);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && hasErrorText(parsed as Record<string, unknown>);
  } catch {
    return false;
  }
}

/** Reads a Chat Completions request body. */
export function parseOpenAiRequest(body: unknown): WireRequest {
  const root = objectAt(body, 'the request body');
  checkSettings(root, SETTINGS, '', REQUIRED);
  const options = root.stream_options === undefined || root.stream_options === null ? {} : objectAt(root.stream_options, 'stream_options');
  checkSettings(options, { include_usage: 'boolean' }, 'stream_options.');
  const system: string[] = [];
  const messages: Message[] = [];
  const names = new Map<string, string>();
  arrayAt(root.messages, 'messages').forEach((item, index) => {
    const at = `messages[${index}]`;
    const message = objectAt(item, at);
    const role = message.role;
    if (role === 'system' || role === 'developer') system.push(textOf(message.content, `${at}.content`));
    else if (role === 'user') messages.push({ role: 'user', content: textOf(message.content, `${at}.content`, USER_PARTS) });
    else if (role === 'assistant') {
      const calls =
        message.tool_calls === undefined || message.tool_calls === null
          ? []
          : arrayAt(message.tool_calls, `${at}.tool_calls`).map((call, callIndex) => toolCall(call, `${at}.tool_calls[${callIndex}]`));
      calls.forEach((call) => names.set(call.tool_call_id, call.tool_name));
      messages.push(
        calls.length
          ? { role: 'assistant', content: textOf(message.content, `${at}.content`, ASSISTANT_PARTS), tool_calls: calls }
          : { role: 'assistant', content: textOf(message.content, `${at}.content`, ASSISTANT_PARTS) },
      );
    } else if (role === 'tool') {
      const id = stringAt(message.tool_call_id, `${at}.tool_call_id`);
      const content = textOf(message.content, `${at}.content`);
      messages.push({ role: 'tool', tool_call_id: id, tool_name: names.get(id) ?? '', content, is_error: openAiToolError(message, content) });
    } else {
      throw new WireError(`${at}.role must be one of system, developer, user, assistant, tool; got ${JSON.stringify(role)}`);
    }
  });
  const tools =
    root.tools === undefined || root.tools === null ? [] : arrayAt(root.tools, 'tools').map((tool, index) => toolDefinition(tool, `tools[${index}]`));
  return {
    system: system.join('\n\n'),
    messages,
    tools,
    model: root.model as string,
    stream: root.stream === true,
    includeUsage: options.include_usage === true,
  };
}

function toolCall(value: unknown, at: string): ToolCallPart {
  const call = objectAt(value, at);
  const fn = objectAt(call.function, `${at}.function`);
  const text = stringAt(fn.arguments ?? '{}', `${at}.function.arguments`);
  let input: unknown;
  try {
    input = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    input = text;
  }
  return { tool_call_id: stringAt(call.id, `${at}.id`), tool_name: stringAt(fn.name, `${at}.function.name`), input };
}

function toolDefinition(value: unknown, at: string): ToolDefinition {
  const tool = objectAt(value, at);
  const fn = objectAt(tool.function, `${at}.function`);
  return {
    name: stringAt(fn.name, `${at}.function.name`),
    description: typeof fn.description === 'string' ? fn.description : '',
    parameters: fn.parameters === undefined ? { type: 'object' } : objectAt(fn.parameters, `${at}.function.parameters`),
  };
}

/** The OpenAI finish_reason for a unified one. */
function finishReason(reason: FinishReason): string {
  return reason.unified === 'tool_calls' || reason.unified === 'length' || reason.unified === 'content_filter' ? reason.unified : 'stop';
}

function wireToolCalls(response: ModelResponse) {
  return response.toolCalls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: typeof call.args === 'string' && call.argsError ? call.args : JSON.stringify(call.args ?? {}) },
  }));
}

function wireUsage(response: ModelResponse) {
  const { input_tokens, output_tokens } = response.usage;
  return { prompt_tokens: input_tokens, completion_tokens: output_tokens, total_tokens: input_tokens + output_tokens };
}

/** A `chat.completion` object for the answer. */
export function openAiCompletion(response: ModelResponse, request: WireRequest, id: string, created: number): object {
  const toolCalls = wireToolCalls(response);
  return {
    id,
    object: 'chat.completion',
    created,
    model: response.responseModel ?? request.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: response.text === '' && toolCalls.length ? null : response.text,
          refusal: null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReason(response.finishReason),
      },
    ],
    usage: wireUsage(response),
  };
}

/** The answer as `chat.completion.chunk` SSE frames, ending with `[DONE]`. */
export function openAiStream(response: ModelResponse, request: WireRequest, id: string, created: number): string[] {
  const base = { id, object: 'chat.completion.chunk', created, model: response.responseModel ?? request.model };
  const chunk = (delta: object, finish: string | null = null) => sseFrame({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: '' })];
  if (response.text) frames.push(chunk({ content: response.text }));
  wireToolCalls(response).forEach((call, index) => {
    frames.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    frames.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }));
  });
  frames.push(chunk({}, finishReason(response.finishReason)));
  if (request.includeUsage) frames.push(sseFrame({ ...base, choices: [], usage: wireUsage(response) }));
  frames.push(sseFrame('[DONE]'));
  return frames;
}

/** An error body in OpenAI's shape. */
export function openAiError(message: string, status: number): object {
  return { error: { message, type: status === 400 ? 'invalid_request_error' : 'api_error', param: null, code: null } };
}
