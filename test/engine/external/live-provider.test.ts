import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { invoke } from '../../../src/engine/invoke.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { chatCompletion, sendJson, startLocalServer, type LocalServer } from '../../helpers/openai-server.js';

const AGENT = join(import.meta.dirname, '../../../scenarios/external/anthropic-fetch/agent.mjs');
const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('model bridge in front of a live provider', () => {
  it('translates an Anthropic-style agent to an OpenAI-compatible upstream and back, with the harness key upstream only', async () => {
    const upstream = await startLocalServer({
      llm: (request, res) =>
        sendJson(
          res,
          200,
          request.count === 1
            ? chatCompletion({ toolCalls: [{ id: 'call_up', name: 'lookup_order', arguments: '{"order_id":"42"}' }] })
            : chatCompletion({ text: 'Order 42 was delivered.' }),
        ),
    });
    servers.push(upstream);
    const { tracer, store } = installTracing();
    const revision = revisionFromValue({
      id: 'live',
      external: {
        command: [process.execPath, AGENT],
        config: { instructions: 'Look orders up.' },
        llm: { provider: 'openai', model: 'gpt-upstream', base_url: upstream.baseUrl('llm'), max_retries: 0 },
      },
    });
    const turn = await invoke(
      revision,
      { messages: [{ role: 'user', content: 'Status of order 42?' }] },
      {
        tracer,
        env: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-upstream-key-77' },
      },
    );
    expect(turn.error).toBeUndefined();
    expect(turn.output).toBe('Order 42 was delivered.');
    const [first, second] = upstream.of('llm');
    expect(first.headers.authorization).toBe('Bearer sk-upstream-key-77');
    expect(first.body).toMatchObject({
      model: 'gpt-upstream',
      messages: [
        { role: 'system', content: 'Look orders up.' },
        { role: 'user', content: 'Status of order 42?' },
      ],
    });
    // The agent's tool_result block went upstream as an OpenAI tool message.
    expect((second.body as { messages: unknown[] }).messages.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_up',
      content: '{"id":"42","status":"delivered","total":30}',
    });
    const spans = store.take(turn.trace_id);
    expect(spans.filter((span) => span.name === 'chat gpt-upstream')).toHaveLength(2);
    expect(JSON.stringify(spans)).not.toContain('sk-upstream-key-77');
  });
});
