import { describe, expect, it } from 'vitest';
import type { ChainResult } from '../../../src/engine/chain/chain-result.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { build, runScripted } from '../../helpers/run-agent.js';

const anyArgs = { type: 'object' };

/** validate_data fails on `{valid: false}` (a `status: "error"` result), as the composition document's example does. */
const tools = [
  { name: 'validate_data', description: 'v', parameters: anyArgs, returns: null },
  { name: 'process_valid_data', description: 'p', parameters: anyArgs, returns: { processed: true } },
  { name: 'handle_invalid_data', description: 'h', parameters: anyArgs, returns: { handled: true } },
];

async function runChain(chain: Record<string, unknown>, validResult: unknown) {
  const own = tools.map((tool) => (tool.name === 'validate_data' ? { ...tool, returns: validResult } : tool));
  const revision = build({ tools: [{ name: 'chain', description: 'The chain.', parameters: anyArgs, chain }, ...own] });
  const { turn } = await runScripted(revision, [{ tool_calls: [{ name: 'chain', args: {} }] }, { text: 'done' }]);
  const message = turn.messages.find((m) => m.role === 'tool');
  if (!message || message.role !== 'tool') throw new Error('no tool result');
  return { isError: message.is_error, result: JSON.parse(message.content) as ChainResult };
}

// The "Conditional Branching" pattern: on_failure names a step without an action.
const conditional = {
  steps: [
    { id: 'validate', tool: 'validate_data', on_success: { next: 'process' }, on_failure: { next: 'handle' } },
    { id: 'process', tool: 'process_valid_data', on_success: { next: 'end' } },
    { id: 'handle', tool: 'handle_invalid_data' },
  ],
};

describe('chain branching', () => {
  it('on_failure: {next} without action branches to that step', async () => {
    const { isError, result } = await runChain(conditional, { status: 'error', message: 'bad row' });
    expect(result.results.map((r) => `${r.step_id}:${r.status}`)).toEqual(['validate:failed', 'handle:success']);
    expect(isError).toBe(false);
    expect(result.success).toBe(true);
  });

  it('a Slack-style answer ({ok: false, error}) or a non-empty error field fails the step, so the fallback runs', async () => {
    for (const answer of [{ ok: false, error: 'not_in_channel' }, { error: 'rate limited' }]) {
      const { result } = await runChain(conditional, answer);
      expect(result.results.map((r) => `${r.step_id}:${r.status}`)).toEqual(['validate:failed', 'handle:success']);
    }
    // An empty or null error is no failure.
    const { result } = await runChain(conditional, { ok: true, error: null });
    expect(result.results.map((r) => `${r.step_id}:${r.status}`)).toEqual(['validate:success', 'process:success']);
  });

  it('next: end ends the chain successfully, so the success path skips the failure handler', async () => {
    const { isError, result } = await runChain(conditional, { status: 'ok' });
    expect(result.results.map((r) => `${r.step_id}:${r.status}`)).toEqual(['validate:success', 'process:success']);
    expect(result).toMatchObject({ success: true, steps_executed: 2 });
    expect(isError).toBe(false);
  });

  it('on_failure: {next: end} ends the chain successfully after a handled failure; the step keeps its failed record', async () => {
    const { isError, result } = await runChain(
      { steps: [{ id: 'validate', tool: 'validate_data', on_failure: { next: 'end' } }, { tool: 'process_valid_data' }] },
      { status: 'error', message: 'bad row' },
    );
    expect(isError).toBe(false);
    expect(result).toMatchObject({ success: true, steps_executed: 1, steps_succeeded: 0, steps_failed: 1 });
    expect(result.results).toEqual([{ step_id: 'validate', tool: 'validate_data', attempt: 1, status: 'failed', failure: 'bad row' }]);
    expect(result).not.toHaveProperty('error');
  });

  it('next: end after retries run out (continue_on_max_retries) also ends successfully', async () => {
    const onFailure = { action: 'retry', max_retries: 1, continue_on_max_retries: true, next: 'end' };
    const { isError, result } = await runChain(
      { steps: [{ tool: 'validate_data', on_failure: onFailure }, { tool: 'process_valid_data' }] },
      { status: 'error' },
    );
    expect(isError).toBe(false);
    expect(result).toMatchObject({ success: true, steps_executed: 2, steps_failed: 2 });
  });

  it('a failed last step that continues without next still fails the chain; action: stop fails it', async () => {
    const fallsOff = await runChain(
      { steps: [{ tool: 'process_valid_data' }, { tool: 'validate_data', on_failure: { action: 'continue' } }] },
      { status: 'error' },
    );
    expect(fallsOff.isError).toBe(true);
    expect(fallsOff.result).toMatchObject({ success: false, error: expect.stringMatching(/^the last step, steps\[1\], failed/) });
    const stops = await runChain({ steps: [{ tool: 'validate_data', on_failure: { action: 'stop' } }, { tool: 'process_valid_data' }] }, { status: 'error' });
    expect(stops.isError).toBe(true);
    expect(stops.result).toMatchObject({ success: false, steps_executed: 1, error: expect.stringMatching(/^step steps\[0\] \(validate_data\) failed/) });
  });

  it('refuses policy keys the action does not use, and a step id "end", at load', () => {
    const load = (chain: Record<string, unknown>) => () => build({ tools: [{ name: 'chain', description: 'c', chain }, ...tools] });
    expect(load({ steps: [{ tool: 'validate_data', on_failure: { action: 'stop', max_retries: 3 } }] })).toThrow(
      /chain\.steps\[0\]\.on_failure\.max_retries: "max_retries" does not apply to action "stop"; it is used by action "retry"/,
    );
    expect(load({ steps: [{ tool: 'validate_data', on_failure: { backoff_ms: 10 } }] })).toThrow(
      /"backoff_ms" does not apply to the default action "stop" \(no "next" given\); it is used by action "retry"/,
    );
    // With `next` the default is continue, and the message says why.
    expect(load({ steps: [{ tool: 'validate_data', on_failure: { next: 'end', backoff_ms: 10 } }] })).toThrow(
      /"backoff_ms" does not apply to the default action "continue" \("next" is given\); it is used by action "retry"/,
    );
    expect(load({ steps: [{ tool: 'validate_data', on_failure: { action: 'continue', continue_on_max_retries: true } }] })).toThrow(
      /"continue_on_max_retries" does not apply to action "continue"/,
    );
    expect(load({ steps: [{ tool: 'validate_data', on_failure: { action: 'stop', next: 'end' } }] })).toThrow(
      /"next" does not apply to action "stop"; it is used by action "continue" or "retry"/,
    );
    expect(load({ steps: [{ tool: 'validate_data', on_failure: { action: 'retry', next: 'end' } }] })).toThrow(/continue_on_max_retries: true/);
    // Every stray key of one policy in one pass, as a flow component's.
    const strays = configErrorOf(load({ steps: [{ tool: 'validate_data', on_failure: { action: 'stop', max_retries: 3, backoff_ms: 5, next: 'end' } }] }));
    expect(strays.message.split('\n')).toEqual([
      expect.stringMatching(/on_failure\.max_retries: "max_retries" does not apply to action "stop"; it is used by action "retry"$/),
      expect.stringMatching(/on_failure\.backoff_ms: "backoff_ms" does not apply to action "stop"; it is used by action "retry"$/),
      expect.stringMatching(/on_failure\.next: "next" does not apply to action "stop"; it is used by action "continue" or "retry"$/),
    ]);
    // An unknown key hides neither the stray policy keys nor the step's unknown tool: one pass says all.
    const beside = configErrorOf(load({ steps: [{ tool: 'validate_dat', on_failure: { action: 'stop', max_retries: 3, foo: 1 } }] }));
    expect(beside.message.split('\n')).toHaveLength(3);
    expect(beside.message.split('\n')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/steps\[0\]\.tool: unknown tool "validate_dat"/),
        expect.stringMatching(/on_failure\.max_retries: "max_retries" does not apply to action "stop"; it is used by action "retry"$/),
        expect.stringMatching(/on_failure\.foo: unknown key "foo"; expected one of: action, max_retries, backoff_ms, continue_on_max_retries, next$/),
      ]),
    );
    expect(load({ steps: [{ id: 'end', tool: 'validate_data' }] })).toThrow(/step id "end" is reserved/);
    expect(
      load({ steps: [{ tool: 'validate_data', on_failure: { action: 'retry', max_retries: 1, continue_on_max_retries: true, next: 'end' } }] }),
    ).not.toThrow();
  });

  it('says a policy key the action does not use once, whatever it holds, and its bad value hides no other problem of the step', () => {
    const load = (onFailure: Record<string, unknown>) => () =>
      build({ tools: [{ name: 'chain', description: 'c', chain: { steps: [{ tool: 'validate_data', on_failure: onFailure }] } }, ...tools] });
    const lines = (onFailure: Record<string, unknown>) => configErrorOf(load(onFailure)).message.split('\n');
    // Not also its range or type: the key does not belong there, whatever it holds (docs/workflows.md).
    expect(lines({ max_retries: -1 })).toEqual([
      expect.stringMatching(
        /on_failure\.max_retries: "max_retries" does not apply to the default action "stop" \(no "next" given\); it is used by action "retry"$/,
      ),
    ]);
    expect(lines({ action: 'stop', max_retries: -1 })).toEqual([
      expect.stringMatching(/on_failure\.max_retries: "max_retries" does not apply to action "stop"; it is used by action "retry"$/),
    ]);
    expect(lines({ next: 'end', backoff_ms: 'x' })).toEqual([
      expect.stringMatching(
        /on_failure\.backoff_ms: "backoff_ms" does not apply to the default action "continue" \("next" is given\); it is used by action "retry"$/,
      ),
    ]);
    // The unknown `next` is said beside it.
    expect(lines({ next: 'nope2', max_retries: -1 })).toEqual([
      expect.stringMatching(
        /on_failure\.max_retries: "max_retries" does not apply to the default action "continue" \("next" is given\); it is used by action "retry"$/,
      ),
      expect.stringMatching(/on_failure\.next: "next" names no step: "nope2" is neither a step id nor a step's tool/),
    ]);
    // A key the action uses is told its range, and hides no other problem either.
    expect(lines({ action: 'retry', max_retries: -1, continue_on_max_retries: true, next: 'nope3' })).toEqual([
      expect.stringMatching(/on_failure\.max_retries: expected a number >= 0, got number -1$/),
      expect.stringMatching(/on_failure\.next: "next" names no step: "nope3"/),
    ]);
  });

  it('says a `next` on_failure does not take once, whatever it names, and with a bad action only the action', () => {
    const lines = (onFailure: Record<string, unknown>) =>
      configErrorOf(() =>
        build({ tools: [{ name: 'chain', description: 'c', chain: { steps: [{ tool: 'validate_data', on_failure: onFailure }] } }, ...tools] }),
      ).message.split('\n');
    // Not also that it names no step: the action never takes it (docs/workflows.md, "Policy keys must apply").
    expect(lines({ action: 'stop', next: 'nowhere' })).toEqual([
      expect.stringMatching(/on_failure\.next: "next" does not apply to action "stop"; it is used by action "continue" or "retry"$/),
    ]);
    expect(lines({ action: 'stop', next: 5 })).toEqual([expect.stringMatching(/on_failure\.next: "next" does not apply to action "stop"/)]);
    expect(lines({ action: 'retry', next: 'nowhere' })).toEqual([
      expect.stringMatching(/on_failure\.next: "next" with action "retry" is used only when retries run out and continue_on_max_retries is true/),
    ]);
    expect(lines({ action: 'retry', continue_on_max_retries: false, next: 'nowhere' })).toEqual([
      expect.stringMatching(/on_failure\.next: "next" with action "retry" is used only when retries run out/),
    ]);
    // Which keys apply is not known: the others' values and targets wait for the action; an unknown key is still said.
    expect(lines({ action: 'explode', max_retries: -1 })).toEqual([
      expect.stringMatching(/on_failure\.action: expected one of "stop" \| "retry" \| "continue", got string "explode"$/),
    ]);
    const unknownAction = lines({ action: 'explode', next: 'nowhere', backoff_ms: 'x', foo: 1 });
    expect(unknownAction).toHaveLength(2);
    expect(unknownAction).toEqual(
      expect.arrayContaining([expect.stringMatching(/on_failure\.action: expected one of/), expect.stringMatching(/on_failure\.foo: unknown key "foo"/)]),
    );
    expect(lines({ action: 5, next: 7 })).toEqual([
      expect.stringMatching(/on_failure\.action: expected one of "stop" \| "retry" \| "continue", got number 5$/),
    ]);
    // Where the action takes it, an unknown target is said.
    expect(lines({ action: 'continue', next: 'nowhere' })).toEqual([expect.stringMatching(/on_failure\.next: "next" names no step: "nowhere"/)]);
    expect(lines({ action: 'retry', continue_on_max_retries: true, next: 'nowhere' })).toEqual([
      expect.stringMatching(/on_failure\.next: "next" names no step: "nowhere"/),
    ]);
  });

  it("a bad on_success value hides neither its unknown next nor the step's unknown tool", () => {
    const error = configErrorOf(() =>
      build({
        tools: [{ name: 'chain', description: 'c', chain: { steps: [{ tool: 'validate_dat', on_success: { next: 'nope', map_outputs: 5 } }] } }, ...tools],
      }),
    );
    expect(error.message.split('\n')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/steps\[0\]\.tool: unknown tool "validate_dat"/),
        expect.stringMatching(/on_success\.next: "next" names no step: "nope"/),
        expect.stringMatching(/on_success\.map_outputs: expected object, got number 5$/),
      ]),
    );
    expect(error.message.split('\n')).toHaveLength(3);
  });
});
