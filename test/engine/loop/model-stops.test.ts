import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../../src/engine/invoke.js';
import type { Model } from '../../../src/engine/model/model.js';
import { AnthropicMessagesModel } from '../../../src/engine/providers/anthropic.js';
import { OpenAIChatModel } from '../../../src/engine/providers/openai.js';
import type { Turn } from '../../../src/engine/turn.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import { build, toolSpans } from '../../helpers/run-agent.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configFixerBuild } from '../flow/config-fixer.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ANTHROPIC_URL = 'https://api.anthropic.com/v1/messages';
const OPENAI_URL = 'https://api.openai.com/v1/chat/completions';

/** A Messages API response as documented (Handling stop reasons). */
function anthropicMessage(content: unknown[], stopReason: string) {
  return {
    id: 'msg_01Aq9w938a90dw8q',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 1200, output_tokens: 1024, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

/** A Chat Completions response as documented (finish_reason, message.refusal). */
function chatCompletion(message: Record<string, unknown>, finishReason: string) {
  return {
    id: 'chatcmpl-9nYAG9LPNonX8DAyrkwYfemr3C8HC',
    object: 'chat.completion',
    created: 1721596428,
    model: 'gpt-4o-2024-08-06',
    choices: [
      { index: 0, message: { role: 'assistant', content: null, refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finishReason },
    ],
    usage: { prompt_tokens: 81, completion_tokens: 11, total_tokens: 92 },
  };
}

const lookup = {
  name: 'lookup_order',
  description: 'Look up an order.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
  returns: { status: 'delivered' },
};

async function run(model: Model, url: string, body: Record<string, unknown>): Promise<{ turn: Turn; tools: number }> {
  server.use(http.post(url, () => HttpResponse.json(body)));
  const { tracer, store } = installTracing();
  const turn = await invoke(build({ tools: [lookup] }), { messages: [{ role: 'user', content: 'Where is order 1234?' }] }, { model, tracer });
  return { turn, tools: toolSpans(store.take(turn.trace_id)).length };
}

const anthropic = () => new AnthropicMessagesModel({ model: 'claude-sonnet-4-5', env: { ANTHROPIC_API_KEY: 'sk-ant-test-000000' } });
const openai = () => new OpenAIChatModel({ model: 'gpt-4o', env: { OPENAI_API_KEY: 'sk-test-000000' } });

describe('abnormal model endings are visible in the turn, never a normal end', () => {
  it.each([
    [
      'anthropic max_tokens',
      anthropic,
      ANTHROPIC_URL,
      anthropicMessage([{ type: 'text', text: 'Order 1234 was shipped on' }], 'max_tokens'),
      'max_tokens',
      'MODEL_MAX_TOKENS',
      'cut off at a token limit',
    ],
    [
      'anthropic model_context_window_exceeded',
      anthropic,
      ANTHROPIC_URL,
      anthropicMessage([{ type: 'text', text: 'Order 1234' }], 'model_context_window_exceeded'),
      'max_tokens',
      'MODEL_MAX_TOKENS',
      "no longer fits the model's context window (shorten",
    ],
    [
      'anthropic refusal',
      anthropic,
      ANTHROPIC_URL,
      anthropicMessage([{ type: 'text', text: 'I cannot help with that.' }], 'refusal'),
      'refusal',
      'MODEL_REFUSAL',
      'the model refused to answer (anthropic finish reason "refusal"): "I cannot help with that."',
    ],
    [
      'anthropic unknown stop_reason',
      anthropic,
      ANTHROPIC_URL,
      anthropicMessage([{ type: 'text', text: 'Order 1234 is delivered.' }], 'something_new'),
      'error',
      'MODEL_UNKNOWN_FINISH_REASON',
      'anthropic finish reason "something_new"',
    ],
    [
      'openai unknown finish_reason',
      openai,
      OPENAI_URL,
      chatCompletion({ content: 'Delivered.' }, 'weird_reason'),
      'error',
      'MODEL_UNKNOWN_FINISH_REASON',
      'openai finish reason "weird_reason"',
    ],
    [
      'anthropic pause_turn',
      anthropic,
      ANTHROPIC_URL,
      anthropicMessage(
        [
          { type: 'text', text: "I'll search for the order status." },
          { type: 'server_tool_use', id: 'srvtoolu_014hJH82Qum7Td6UV8gDXThB', name: 'web_search', input: { query: 'order 1234 status' } },
        ],
        'pause_turn',
      ),
      'error',
      'MODEL_PAUSE_TURN',
      'does not continue',
    ],
    [
      'openai length',
      openai,
      OPENAI_URL,
      chatCompletion({ content: 'Order 1234 was shipped on' }, 'length'),
      'max_tokens',
      'MODEL_MAX_TOKENS',
      'openai finish reason "length"',
    ],
    ['openai content_filter', openai, OPENAI_URL, chatCompletion({}, 'content_filter'), 'content_filter', 'MODEL_CONTENT_FILTER', 'content filter'],
    [
      'openai refusal field',
      openai,
      OPENAI_URL,
      chatCompletion({ refusal: "I'm sorry, I cannot assist with that request." }, 'stop'),
      'refusal',
      'MODEL_REFUSAL',
      "I'm sorry, I cannot assist with that request.",
    ],
  ])('%s', async (_name, model, url, body, stopReason, type, words) => {
    const { turn } = await run(model(), url, body);
    expect(turn.stop_reason).toBe(stopReason);
    expect(turn.error?.type).toBe(type);
    expect(turn.error?.message).toContain(words);
    // The transcript keeps what the model said; it is not the turn's normal answer.
    expect(turn.messages.at(-1)?.role).toBe('assistant');
  });

  it('judges an answer without any finish reason by its content (some compatible servers send none)', async () => {
    const body = chatCompletion({ content: 'Order 1234 is delivered.' }, 'stop');
    (body.choices[0] as Record<string, unknown>).finish_reason = null;
    const { turn } = await run(openai(), OPENAI_URL, body);
    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.output).toBe('Order 1234 is delivered.');
  });

  it('does not run tool calls of a response cut off at max_tokens', async () => {
    const truncated = anthropicMessage([{ type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'lookup_order', input: {} }], 'max_tokens');
    const { turn, tools } = await run(anthropic(), ANTHROPIC_URL, truncated);
    expect(turn.stop_reason).toBe('max_tokens');
    expect(tools).toBe(0);
  });

  it('still ends normally on end_turn and a refusal-free stop', async () => {
    const { turn } = await run(openai(), OPENAI_URL, chatCompletion({ content: 'It was delivered.' }, 'stop'));
    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.error).toBeUndefined();
    expect(turn.output).toBe('It was delivered.');
  });

  it('ends a flow whose agent component was cut off with that stop reason, not error', async () => {
    server.use(http.post(OPENAI_URL, () => HttpResponse.json(chatCompletion({ content: 'The port should be' }, 'length'))));
    const { tracer, store } = installTracing();
    const workspace = FolderWorkspace.at(tempDir({ 'config.json': '{"port": "80"}' }));
    const turn = await invoke(
      revisionFromValue(configFixerBuild()),
      { messages: [{ role: 'user', content: 'Fix the config.' }], context: { config_path: 'config.json' } },
      { model: openai(), tracer, workspace },
    );
    const root = store.take(turn.trace_id).find((span) => span.parent_id === null);
    expect(turn.stop_reason).toBe('max_tokens');
    expect(turn.error?.type).toBe('MODEL_MAX_TOKENS');
    expect(JSON.parse(String(root?.attributes['agentcheck.flow.state'])).status).toBe('max_tokens');
  });
});

describe("a custom Model's finish reason is held to the documented words", () => {
  /** A Model whose first answer calls lookup_order and ends with `unified`, then answers 'done'. */
  function customModel(unified: string): Model & { calls: number } {
    return {
      provider: 'mine',
      modelId: 'm1',
      calls: 0,
      async generate() {
        return this.calls++ === 0
          ? {
              text: '',
              toolCalls: [{ id: 'a', name: 'lookup_order', args: { order_id: '1' } }],
              finishReason: { unified, raw: 'x' },
              usage: { input_tokens: 1, output_tokens: 1 },
            }
          : { text: 'done', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: { input_tokens: 1, output_tokens: 1 } };
      },
    } as Model & { calls: number };
  }

  async function runCustom(unified: string): Promise<{ turn: Turn; tools: number; calls: number }> {
    const { tracer, store } = installTracing();
    const model = customModel(unified);
    const turn = await invoke(build({ tools: [lookup] }), { messages: [{ role: 'user', content: 'Where is order 1?' }] }, { model, tracer });
    return { turn, tools: toolSpans(store.take(turn.trace_id)).length, calls: model.calls };
  }

  it("ends the turn with error MODEL_FAILED on 'error', keeping the answer but running none of its calls", async () => {
    const { turn, tools, calls } = await runCustom('error');
    expect(turn.stop_reason).toBe('error');
    expect(turn.error).toEqual({ type: 'MODEL_FAILED', message: 'the model ended its answer with an error (mine finish reason "x")' });
    expect(tools).toBe(0);
    expect(calls).toBe(1);
    expect(turn.messages.at(-1)).toMatchObject({ role: 'assistant', tool_calls: [{ tool_call_id: 'a', tool_name: 'lookup_order' }] });
  });

  it.each(['bogus', '', 'STOP', 'Tool_Calls'])('refuses the unknown word %j as a malformed response, running none of its calls', async (unified) => {
    const { turn, tools, calls } = await runCustom(unified);
    expect(turn.stop_reason).toBe('error');
    expect(turn.error).toEqual({
      type: 'MODEL_FAILED',
      message: `model mine/m1 returned a wrong response (finishReason.unified: got string ${JSON.stringify(unified)}, expected one of stop, tool_calls, length, content_filter, refusal, pause, error, other); expected a ModelResponse {text: string, toolCalls: [{id, name, args}], finishReason: {unified, raw}, usage: {input_tokens, output_tokens}}`,
    });
    expect(tools).toBe(0);
    expect(calls).toBe(1);
  });

  it("still runs the calls of 'tool_calls' and ends normally on 'stop'", async () => {
    const { turn, tools, calls } = await runCustom('tool_calls');
    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.output).toBe('done');
    expect(tools).toBe(1);
    expect(calls).toBe(2);
  });
});
