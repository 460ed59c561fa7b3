import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChainResult } from '../../../src/engine/chain/chain-result.js';
import { build, runScripted, toolSpans } from '../../helpers/run-agent.js';
import { lineage, spansNamed } from '../../helpers/span-tree.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A handler that fails `failures` times with 503, then answers `body`; counts calls. */
function flaky(url: string, failures: number, body: Record<string, unknown>) {
  const seen = { calls: 0 };
  server.use(http.get(url, () => (++seen.calls <= failures ? HttpResponse.json({ error: 'busy' }, { status: 503 }) : HttpResponse.json(body))));
  return seen;
}

const anyArgs = { type: 'object' };

/** Runs the chain tool `chain` once through invoke; returns the chain result and spans. */
async function runChain(chain: Record<string, unknown>, tools: Record<string, unknown>[] = [], args: Record<string, unknown> = {}) {
  const revision = build({ tools: [{ name: 'chain', description: 'The chain.', parameters: anyArgs, chain }, ...tools] });
  const { turn, spans } = await runScripted(revision, [{ tool_calls: [{ name: 'chain', args }] }, { text: 'done' }]);
  const message = turn.messages.find((m) => m.role === 'tool');
  if (!message || message.role !== 'tool') throw new Error('no tool result');
  return { isError: message.is_error, result: JSON.parse(message.content) as ChainResult, spans };
}

describe('composite tool chains', () => {
  it('runs the echo chain, interpolating state inside strings and carrying map_outputs', async () => {
    const { isError, result, spans } = await runChain(
      {
        name: 'echo_chain_demo',
        steps: [
          { tool: 'echo', inputs: { text: '{{ state.initial_message }}' }, on_success: { map_outputs: { $: 'step1_result' } } },
          { tool: 'echo', inputs: { text: 'Step 2: {{ step1_result }}' }, on_success: { map_outputs: { $: 'step2_result' } } },
          { tool: 'echo', inputs: { text: 'Step 3: {{ state.step2_result }}' }, on_success: { map_outputs: { $: 'final_result' } } },
        ],
      },
      [],
      { initial_message: 'Hello chain!' },
    );
    expect(isError).toBe(false);
    expect(result).toMatchObject({ success: true, chain_name: 'echo_chain_demo', steps_executed: 3, steps_succeeded: 3, steps_failed: 0 });
    expect(result.final_state).toEqual({
      initial_message: 'Hello chain!',
      step1_result: 'Hello chain!',
      step2_result: 'Step 2: Hello chain!',
      final_result: 'Step 3: Step 2: Hello chain!',
    });
    expect(result.results.map((r) => r.step_id)).toEqual(['steps[0]', 'steps[1]', 'steps[2]']);
    expect(typeof result.chain_id).toBe('string');
    expect(Number.isNaN(Date.parse(result.completed_at))).toBe(false);
    const nested = spansNamed(spans, 'execute_tool echo')[2];
    expect(nested.attributes['agentcheck.tool.source']).toBe('chain');
    expect(lineage(spans, nested)).toEqual(['execute_tool echo', 'chain_step echo', 'execute_tool chain', 'invoke_agent Test agent']);
    expect(spansNamed(spans, 'chain_step echo')[1].attributes).toMatchObject({
      'gen_ai.tool.name': 'echo',
      'agentcheck.chain.step_id': 'steps[1]',
      'agentcheck.chain.attempt': 1,
    });
  });

  it('falls back when the primary fails and carries the fallback outputs', async () => {
    server.use(http.get('https://primary.test/search', () => HttpResponse.json({ error: 'down' }, { status: 500 })));
    server.use(http.get('https://fallback.test/search', () => HttpResponse.json({ results: ['r1', 'r2'] })));
    const tools = [
      { name: 'primary_data_tool', description: 'p', parameters: anyArgs, http: { url: 'https://primary.test/search?q={{ args.query }}' } },
      { name: 'fallback_data_tool', description: 'f', parameters: anyArgs, http: { url: 'https://fallback.test/search?q={{ args.query }}' } },
    ];
    const { isError, result, spans } = await runChain(
      {
        steps: [
          {
            tool: 'primary_data_tool',
            inputs: { query: '{{ state.search_term }}' },
            on_success: { map_outputs: { results: 'data' }, next: 'process' },
            on_failure: { action: 'continue', next: 'fallback_data_tool' },
          },
          {
            tool: 'fallback_data_tool',
            inputs: { query: '{{ state.search_term }}' },
            on_success: { map_outputs: { results: 'data', 'results.0': 'top' }, next: 'process' },
          },
          { id: 'process', tool: 'echo', inputs: { text: 'found {{ data }}' }, on_success: { map_outputs: { $: 'summary' } } },
        ],
      },
      tools,
      { search_term: 'shoes' },
    );
    expect(isError).toBe(false);
    expect(result).toMatchObject({ success: true, steps_executed: 3, steps_succeeded: 2, steps_failed: 1 });
    expect(result.final_state).toEqual({ search_term: 'shoes', data: ['r1', 'r2'], top: 'r1', summary: 'found ["r1","r2"]' });
    expect(result.results.map((r) => [r.step_id, r.status])).toEqual([
      ['steps[0]', 'failed'],
      ['steps[1]', 'success'],
      ['process', 'success'],
    ]);
    expect(spansNamed(spans, 'chain_step primary_data_tool')[0].status).toBe('error');
  });

  it('retries a tool that fails twice, then succeeds, with per-step counters kept out of the state', async () => {
    const first = flaky('https://flaky.test/a', 2, { value: 'A' });
    const second = flaky('https://flaky.test/b', 1, { value: 'B' });
    const tools = [
      { name: 'get_a', description: 'a', parameters: anyArgs, http: { url: 'https://flaky.test/a' } },
      { name: 'get_b', description: 'b', parameters: anyArgs, http: { url: 'https://flaky.test/b' } },
    ];
    const { result, spans } = await runChain(
      {
        steps: [
          // Two retries each: a shared counter would run out on the second step.
          { tool: 'get_a', on_failure: { action: 'retry', max_retries: 2 }, on_success: { map_outputs: { value: 'a' } } },
          { tool: 'get_b', on_failure: { action: 'retry', max_retries: 2 }, on_success: { map_outputs: { value: 'b' } } },
        ],
      },
      tools,
    );
    expect(first.calls).toBe(3);
    expect(second.calls).toBe(2);
    expect(result).toMatchObject({ success: true, steps_executed: 5, steps_succeeded: 2, steps_failed: 3 });
    expect(result.final_state).toEqual({ a: 'A', b: 'B' });
    expect(spansNamed(spans, 'chain_step get_a').map((s) => s.attributes['agentcheck.chain.attempt'])).toEqual([1, 2, 3]);
    expect(
      toolSpans(spans)
        .filter((s) => s.name === 'execute_tool get_a')
        .map((s) => s.attributes['agentcheck.tool.outcome']),
    ).toEqual(['error', 'error', 'ok']);
  });

  it('stops when retries run out, or goes on with continue_on_max_retries', async () => {
    flaky('https://flaky.test/down', 99, {});
    const tools = [{ name: 'down', description: 'd', parameters: anyArgs, http: { url: 'https://flaky.test/down' } }];
    const stopped = await runChain(
      {
        steps: [
          { tool: 'down', on_failure: { action: 'retry', max_retries: 1 } },
          { tool: 'echo', inputs: { text: 'x' } },
        ],
      },
      tools,
    );
    expect(stopped.isError).toBe(true);
    expect(stopped.result).toMatchObject({ success: false, steps_executed: 2, steps_failed: 2 });
    // The same `HTTP <status>: <body>` message a flow step writes for the same failure.
    expect(stopped.result.error).toBe('step steps[0] (down) failed after 1 retry: HTTP 503: {"error":"busy"}');
    expect(stopped.result.results[0].failure).toBe('HTTP 503: {"error":"busy"}');
    const continued = await runChain(
      {
        steps: [
          { tool: 'down', on_failure: { action: 'retry', max_retries: 1, continue_on_max_retries: true, next: 'backup' } },
          { tool: 'echo', inputs: { text: 'skipped' } },
          { id: 'backup', tool: 'echo', inputs: { text: 'backup' } },
        ],
      },
      tools,
    );
    expect(continued.result).toMatchObject({ success: true, steps_executed: 3 });
    expect(continued.result.results.map((r) => r.step_id)).toEqual(['steps[0]', 'steps[0]', 'backup']);
  });

  it('stops a backward next with the loop guard and still returns the result', async () => {
    const { isError, result, spans } = await runChain({
      max_steps: 5,
      steps: [
        { id: 'ping', tool: 'echo', inputs: { text: 'ping' }, on_success: { next: 'pong' } },
        { id: 'pong', tool: 'echo', inputs: { text: 'pong' }, on_success: { next: 'ping' } },
      ],
    });
    expect(isError).toBe(true);
    expect(result).toMatchObject({ success: false, steps_executed: 5, steps_succeeded: 5, steps_failed: 0 });
    expect(result.error).toContain('max_steps (5 step executions)');
    expect(spansNamed(spans, 'execute_tool chain')[0].attributes['error.type']).toBe('chain_failed');
  });

  it('treats a status:"error" or is_error result as a failure', async () => {
    const tools = [
      { name: 'soft_fail', description: 's', parameters: anyArgs, returns: { status: 'error', message: 'quota exceeded' } },
      { name: 'flagged', description: 'f', parameters: anyArgs, returns: { is_error: true, detail: 'bad' } },
    ];
    const { isError, result } = await runChain({ steps: [{ tool: 'soft_fail' }, { tool: 'echo', inputs: { text: 'never' } }] }, tools);
    expect(isError).toBe(true);
    expect(result).toMatchObject({ success: false, steps_executed: 1, steps_failed: 1 });
    expect(result.results[0]).toEqual({ step_id: 'steps[0]', tool: 'soft_fail', attempt: 1, status: 'failed', failure: 'quota exceeded' });
    const flagged = await runChain({ steps: [{ tool: 'flagged', on_failure: { action: 'continue' } }] }, tools);
    // The last step failed: the chain failed even though it was allowed to continue.
    expect(flagged.result).toMatchObject({ success: false, steps_failed: 1 });
  });

  it('fails on a missing template variable instead of passing the template on', async () => {
    const { isError, result } = await runChain({ steps: [{ tool: 'echo', inputs: { text: 'hi {{ state.nobody }}' }, on_failure: { action: 'retry' } }] });
    expect(isError).toBe(true);
    expect(result.steps_executed).toBe(1);
    expect(result.results[0].failure).toContain('undefined variable "state.nobody"');
    expect(result.error).toContain('could not start');
  });

  it("spells a run aborted mid-chain on its chain_step span as on the chain's execute_tool, lower case", async () => {
    // The first step's request aborts the run; the second step's call finds it aborted.
    const controller = new AbortController();
    server.use(
      http.get('https://abort.test/', () => {
        controller.abort(new Error('the caller stopped it'));
        return HttpResponse.json({ ok: true });
      }),
    );
    const tools = [{ name: 'stopper', description: 's', parameters: anyArgs, http: { url: 'https://abort.test/' } }];
    const chain = {
      steps: [
        { tool: 'stopper', on_failure: { action: 'continue' } },
        { tool: 'echo', inputs: { text: 'after' } },
      ],
    };
    const revision = build({ tools: [{ name: 'chain', description: 'The chain.', parameters: anyArgs, chain }, ...tools] });
    const { turn, spans } = await runScripted(revision, [{ tool_calls: [{ name: 'chain', args: {} }] }, { text: 'done' }], { signal: controller.signal });
    expect(turn.error?.type).toBe('RUN_ABORTED');
    expect(spansNamed(spans, 'execute_tool chain')[0].attributes['error.type']).toBe('run_aborted');
    expect(spansNamed(spans, 'chain_step echo')[0]).toMatchObject({ status: 'error', attributes: { 'error.type': 'run_aborted' } });
  });

  it('refuses an unknown next and an unknown tool when the build loads', () => {
    const load = (chain: Record<string, unknown>) => () => build({ tools: [{ name: 'chain', description: 'c', chain }] });
    expect(load({ steps: [{ tool: 'echo', on_success: { next: 'nowhere' } }] })).toThrow(
      /chain\.steps\[0\]\.on_success\.next: "next" names no step: "nowhere"/,
    );
    expect(load({ steps: [{ tool: 'nope' }] })).toThrow(/unknown tool "nope"/);
  });
});
