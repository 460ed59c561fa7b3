import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelBridge } from '../../../src/engine/external/model-bridge.js';
import { ScriptedModel, type ScriptEntry } from '../../../src/engine/providers/scripted.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { NO_MODEL_CALL } from '../../helpers/run-agent.js';

const bridges: ModelBridge[] = [];
afterEach(async () => {
  await Promise.all(bridges.splice(0).map((bridge) => bridge.close()));
});

async function startBridge(script: ScriptEntry[], maxTurns = 10, signal?: AbortSignal) {
  const { tracer, store } = installTracing();
  const root = tracer.startSpan('root', {}, ROOT_CONTEXT);
  const model = new ScriptedModel(script);
  const bridge = await ModelBridge.start({ model, tracer, parent: trace.setSpan(ROOT_CONTEXT, root), maxTurns, parameters: {}, signal });
  bridges.push(bridge);
  const spans = async () => {
    await bridge.close();
    root.end();
    return store.take(root.spanContext().traceId);
  };
  return { bridge, model, spans };
}

/** A Chat Completions body with what the API requires (`model`) and `body`'s fields. */
const chat = (body: Record<string, unknown>) => ({ model: 'gpt-test', ...body });
/** A Messages body with what the API requires (`model`, `max_tokens`) and `body`'s fields. */
const anthropic = (body: Record<string, unknown>) => ({ model: 'claude-test', max_tokens: 100, ...body });

async function post(url: string, body: unknown): Promise<{ status: number; json: any; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/** The data payloads of an SSE body, `[DONE]` left out. */
function events(text: string): any[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map(
      (frame) =>
        frame
          .split('\n')
          .find((line) => line.startsWith('data: '))
          ?.slice(6) ?? '',
    )
    .filter((data) => data && data !== '[DONE]')
    .map((data) => JSON.parse(data));
}

const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('model bridge, OpenAI Chat Completions', () => {
  it('answers from the script, records chat and execute_tool spans, and takes the error result from the next request', async () => {
    const { bridge, model, spans } = await startBridge([
      { tool_calls: [{ id: 'call_a', name: 'get_weather', args: { city: 'Oslo' } }] },
      { text: 'Could not get the weather.' },
    ]);
    const first = await post(`${bridge.url}/v1/chat/completions`, {
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?' },
      ],
      tools: [weatherTool],
    });
    expect(first.status).toBe(200);
    const choice = first.json.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls).toEqual([{ id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }]);
    expect(first.json.usage.total_tokens).toBeGreaterThan(0);
    expect(model.requests[0].system).toBe('Be brief.');
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['get_weather']);

    const second = await post(`${bridge.url}/v1/chat/completions`, {
      model: 'gpt-test',
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        choice.message,
        { role: 'tool', tool_call_id: 'call_a', content: JSON.stringify({ error: 'service down' }) },
      ],
    });
    expect(second.json.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'Could not get the weather.' } });
    expect(model.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', tool_name: 'get_weather', is_error: true });
    expect(bridge.ledger.transcript.map((message) => message.role)).toEqual(['assistant', 'tool', 'assistant']);

    const records = await spans();
    expect(records.filter((span) => span.name.startsWith('chat ')).map((span) => span.attributes['agentcheck.turn'])).toEqual([0, 1]);
    const tool = records.find((span) => span.name === 'execute_tool get_weather');
    expect(tool?.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'call_a', 'agentcheck.tool.is_error': true, 'agentcheck.tool.outcome': 'error' });
    expect(tool?.status).toBe('error');
  });

  it('counts a tool result as failed only for a non-empty error string, as the verdict does: "error": null, "" or false is a success', async () => {
    const results = ['{"data": 1, "error": null}', '{"data": 1, "error": ""}', '{"data": 1, "error": false}', '{"error": "boom"}'];
    const script: ScriptEntry[] = results.flatMap((_, index) => [{ tool_calls: [{ id: `call_${index}`, name: 'fetch_data', args: {} }] }, { text: 'ok' }]);
    const { bridge, model, spans } = await startBridge(script);
    for (const [index, content] of results.entries()) {
      const call = await post(`${bridge.url}/v1/chat/completions`, chat({ messages: [{ role: 'user', content: 'go' }] }));
      const answer = await post(
        `${bridge.url}/v1/chat/completions`,
        chat({ messages: [{ role: 'user', content: 'go' }, call.json.choices[0].message, { role: 'tool', tool_call_id: `call_${index}`, content }] }),
      );
      expect(answer.status).toBe(200);
    }
    expect(
      model.requests
        .filter((_, index) => index % 2 === 1)
        .map((request) => request.messages.at(-1))
        .map((message) => message?.role === 'tool' && message.is_error),
    ).toEqual([false, false, false, true]);
    const tools = (await spans()).filter((span) => span.name === 'execute_tool fetch_data');
    expect(tools.map((span) => span.attributes['agentcheck.tool.outcome'])).toEqual(['ok', 'ok', 'ok', 'error']);
  });

  it('streams a correct SSE answer with usage when asked', async () => {
    const { bridge } = await startBridge([{ text: 'Hi there', tool_calls: [{ id: 'c1', name: 'get_weather', args: { city: 'Rome' } }] }]);
    const response = await post(`${bridge.url}/v1/chat/completions`, {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.text.trim().endsWith('data: [DONE]')).toBe(true);
    const chunks = events(response.text);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    const content = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(content).toBe('Hi there');
    const args = chunks
      .flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? [])
      .map((call: any) => call.function.arguments)
      .join('');
    expect(JSON.parse(args)).toEqual({ city: 'Rome' });
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1).usage.completion_tokens).toBeGreaterThan(0);
  });

  it('answers a bad request with a 400 in OpenAI error shape', async () => {
    const { bridge } = await startBridge(NO_MODEL_CALL);
    const notJson = await post(`${bridge.url}/v1/chat/completions`, '{oops');
    expect(notJson.status).toBe(400);
    expect(notJson.json.error).toMatchObject({ type: 'invalid_request_error' });
    const badRole = await post(`${bridge.url}/v1/chat/completions`, chat({ messages: [{ role: 'robot', content: 'x' }] }));
    expect(badRole.status).toBe(400);
    expect(badRole.json.error.message).toContain('messages[0].role must be one of');
  });

  it('answers a mistyped setting or content part with a 400 naming the field and what it takes, and calls no model', async () => {
    const { bridge, spans } = await startBridge([{ text: 'unused' }]);
    const user = [{ role: 'user', content: 'hi' }];
    const cases: Array<[Record<string, unknown>, string]> = [
      [chat({ messages: user, stream: 'yes' }), 'stream must be true or false, got string "yes"'],
      [chat({ messages: user, max_tokens: 'ten' }), 'max_tokens must be a whole number 1 or more, got string "ten"'],
      [chat({ messages: user, temperature: '0.2' }), 'temperature must be a number from 0 to 2, got string "0.2"'],
      // The providers' plain range rules, refused as they would be.
      [chat({ messages: user, max_tokens: -3 }), 'max_tokens must be a whole number 1 or more, got number -3'],
      [chat({ messages: user, max_completion_tokens: 0 }), 'max_completion_tokens must be a whole number 1 or more, got number 0'],
      [chat({ messages: user, temperature: 5 }), 'temperature must be a number from 0 to 2, got number 5'],
      [chat({ messages: user, top_p: 2 }), 'top_p must be a number from 0 to 1, got number 2'],
      // The API's required model: missing, null, empty or mistyped.
      [{ messages: user }, 'model is required (a non-empty string), got nothing'],
      [{ messages: user, model: null }, 'model is required (a non-empty string), got null'],
      [{ messages: user, model: '' }, 'model must be a non-empty string, got string ""'],
      [{ messages: user, model: 7 }, 'model must be a non-empty string, got number 7'],
      [
        chat({ messages: user, stream: true, stream_options: { include_usage: 'yes' } }),
        'stream_options.include_usage must be true or false, got string "yes"',
      ],
      [chat({ messages: [{ role: 'user', content: 5 }] }), 'messages[0].content must be a string or an array, got number 5'],
      [
        chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image_weird' }] }] }),
        'messages[0].content[1].type must be one of "text", "image_url", "input_audio", "file", got string "image_weird"',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await post(`${bridge.url}/v1/chat/completions`, body);
      expect(answer.status, message).toBe(400);
      expect(answer.json).toEqual({ error: { message, type: 'invalid_request_error', param: null, code: null } });
    }
    // Settings of the right type and an image part (left out of the transcript) are read as before.
    const fine = await post(`${bridge.url}/v1/chat/completions`, {
      model: 'm',
      stream: false,
      max_tokens: 10,
      max_completion_tokens: 1,
      temperature: null,
      top_p: 1,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image_url', image_url: { url: 'data:,' } },
          ],
        },
      ],
    });
    expect(fine.status).toBe(200);
    expect((await spans()).filter((span) => span.name.startsWith('chat'))).toHaveLength(1);
  });

  it('answers a body over 20 MB with 413 and closes that connection, so the next request on a new one is answered', async () => {
    const { bridge } = await startBridge([{ text: 'after the big one' }]);
    const big = await fetch(`${bridge.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chat({ messages: [{ role: 'user', content: 'z'.repeat(21 * 1024 * 1024) }] })),
    });
    expect(big.status).toBe(413);
    expect(big.headers.get('connection')).toBe('close');
    await big.text();
    const next = await post(`${bridge.url}/v1/chat/completions`, chat({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(next.status).toBe(200);
    expect(next.json.choices[0].message.content).toBe('after the big one');
  });

  it('refuses calls beyond max_turns', async () => {
    const { bridge } = await startBridge([{ text: 'a' }, { text: 'b' }], 1);
    await post(`${bridge.url}/v1/chat/completions`, chat({ messages: [{ role: 'user', content: 'x' }] }));
    const refused = await post(`${bridge.url}/v1/chat/completions`, chat({ messages: [{ role: 'user', content: 'x' }] }));
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain('max_turns reached');
    expect(bridge.maxTurnsReached).toBe(true);
  });

  it('answers no model call once the run is aborted (its time limit): no model call, no chat span after the cut', async () => {
    const run = new AbortController();
    const { bridge, model, spans } = await startBridge([{ text: 'one' }, { text: 'two' }], 10, run.signal);
    expect((await post(`${bridge.url}/v1/chat/completions`, chat({ messages: [{ role: 'user', content: 'x' }] }))).json.choices[0].message.content).toBe('one');
    run.abort(new Error('timed out'));
    const late = await post(`${bridge.url}/v1/chat/completions`, chat({ messages: [{ role: 'user', content: 'x' }] }));
    expect(late.status).toBe(400);
    expect(late.json.error.message).toContain('the run was aborted');
    expect(model.requests).toHaveLength(1);
    expect((await spans()).filter((span) => span.name.startsWith('chat'))).toHaveLength(1);
  });
});

describe('model bridge, Anthropic Messages', () => {
  it('answers with tool_use blocks and reads tool_result.is_error', async () => {
    const { bridge, model, spans } = await startBridge([{ tool_calls: [{ id: 'toolu_1', name: 'lookup', args: { id: 7 } }] }, { text: 'Done.' }]);
    const first = await post(`${bridge.url}/v1/messages`, {
      model: 'claude-test',
      max_tokens: 100,
      system: 'Sys',
      messages: [{ role: 'user', content: 'find 7' }],
      tools: [{ name: 'lookup', description: 'Look up', input_schema: { type: 'object' } }],
    });
    expect(first.json).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { id: 7 } }],
    });
    const second = await post(`${bridge.url}/v1/messages`, {
      model: 'claude-test',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'find 7' },
        { role: 'assistant', content: first.json.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'not found' }], is_error: true }] },
      ],
    });
    expect(second.json).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'Done.' }] });
    expect(model.requests[0].system).toBe('Sys');
    expect(model.requests[1].messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'toolu_1', tool_name: 'lookup', content: 'not found', is_error: true });
    const tool = (await spans()).find((span) => span.name === 'execute_tool lookup');
    expect(tool?.attributes).toMatchObject({ 'gen_ai.tool.call.result': 'not found', 'agentcheck.tool.is_error': true });
  });

  it('streams message events', async () => {
    const { bridge } = await startBridge([{ text: 'Hello', tool_calls: [{ id: 't1', name: 'lookup', args: { q: 'x' } }] }]);
    const response = await post(`${bridge.url}/v1/messages`, { model: 'c', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const types = events(response.text).map((event) => event.type);
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(response.text).toContain('event: message_start\n');
    const json = events(response.text).find((event) => event.delta?.type === 'input_json_delta');
    expect(JSON.parse(json.delta.partial_json)).toEqual({ q: 'x' });
  });

  it('answers a bad request with a 400 in Anthropic error shape, and a tool call never answered is an error span', async () => {
    const { bridge, spans } = await startBridge([{ tool_calls: [{ id: 't9', name: 'lookup', args: {} }] }]);
    const bad = await post(`${bridge.url}/v1/messages`, anthropic({ messages: 'nope' }));
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'messages must be an array, got string "nope"' } });
    await post(`${bridge.url}/v1/messages`, anthropic({ messages: [{ role: 'user', content: 'x' }] }));
    const unanswered = (await spans()).find((span) => span.name === 'execute_tool lookup');
    expect(unanswered?.status).toBe('error');
    expect(unanswered?.attributes['error.type']).toBe('unanswered_tool_call');
  });

  it('answers a mistyped setting, content or block with a 400 naming the field and what it takes (a string content or system is valid too)', async () => {
    const { bridge } = await startBridge([{ text: 'plain' }, { text: 'blocks' }, { text: 'huge' }]);
    const user = [{ role: 'user', content: 'hi' }];
    const cases: Array<[Record<string, unknown>, string]> = [
      // The API's required model and max_tokens: missing, null, empty or mistyped.
      [{ max_tokens: 10, messages: user }, 'model is required (a non-empty string), got nothing'],
      [{ model: '', max_tokens: 10, messages: user }, 'model must be a non-empty string, got string ""'],
      [{ model: 'c', messages: user }, 'max_tokens is required (a whole number 1 or more), got nothing'],
      [{ model: 'c', max_tokens: null, messages: user }, 'max_tokens is required (a whole number 1 or more), got null'],
      [anthropic({ messages: user, max_tokens: 'ten' }), 'max_tokens must be a whole number 1 or more, got string "ten"'],
      [anthropic({ messages: user, max_tokens: 0 }), 'max_tokens must be a whole number 1 or more, got number 0'],
      [anthropic({ messages: user, temperature: 1.5 }), 'temperature must be a number from 0 to 1, got number 1.5'],
      [anthropic({ messages: user, top_p: -0.1 }), 'top_p must be a number from 0 to 1, got number -0.1'],
      [anthropic({ messages: user, thinking: 5 }), 'thinking must be an object, got number 5'],
      [
        anthropic({ messages: [...user, { role: 'assistant', content: [{ type: 'thinking', thinking: 5, signature: 's' }] }] }),
        'messages[1].content[0].thinking must be a string, got number 5',
      ],
      [anthropic({ messages: user, stream: 'yes' }), 'stream must be true or false, got string "yes"'],
      [anthropic({ messages: user, stop_sequences: 'END' }), 'stop_sequences must be an array of strings, got string "END"'],
      [anthropic({ messages: [{ role: 'user', content: 5 }] }), 'messages[0].content must be a string or an array, got number 5'],
      [anthropic({ messages: user, system: 5 }), 'system must be a string or an array, got number 5'],
      [
        anthropic({ messages: [{ role: 'user', content: [{ type: 'image_weird' }] }] }),
        'messages[0].content[0].type must be one of "text", "tool_result", "image", "document", "search_result", "container_upload", got string "image_weird"',
      ],
      [
        anthropic({ messages: [...user, { role: 'assistant', content: [{ text: 'no type' }] }] }),
        'messages[1].content[0].type must be one of "text", "tool_use", "thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result", "mcp_tool_use", "mcp_tool_result", got nothing',
      ],
      [
        anthropic({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x', is_error: 'yes' }] }] }),
        'messages[0].content[0].is_error must be true or false, got string "yes"',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await post(`${bridge.url}/v1/messages`, body);
      expect(answer.status, message).toBe(400);
      expect(answer.json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message } });
    }
    // Values at the ends of their ranges are valid.
    const plain = await post(`${bridge.url}/v1/messages`, {
      model: 'm',
      max_tokens: 1,
      temperature: 1,
      top_p: 0,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      system: 'Be brief.',
      messages: user,
    });
    expect(plain.status).toBe(200);
    const blocks = await post(`${bridge.url}/v1/messages`, {
      model: 'm',
      max_tokens: 10,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } },
          ],
        },
        // An earlier turn that used Anthropic's own web search: its blocks are read past, not refused.
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
            { type: 'text', text: 'found nothing' },
          ],
        },
        { role: 'user', content: 'thanks' },
      ],
    });
    expect(blocks.status, JSON.stringify(blocks.json)).toBe(200);
    expect(blocks.json.content).toEqual([{ type: 'text', text: 'blocks' }]);
    // A huge max_tokens is still a whole number 1 or more: the per-model cap is the provider's rule, and it is not passed on.
    const huge = await post(`${bridge.url}/v1/messages`, { model: 'm', max_tokens: 1e20, messages: user });
    expect(huge.status, JSON.stringify(huge.json)).toBe(200);
    expect(huge.json.content).toEqual([{ type: 'text', text: 'huge' }]);
  });
});
