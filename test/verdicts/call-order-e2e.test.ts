/**
 * Regression through the real engine: one response calls a slow command tool, then a fast
 * returns tool. Both spans start in the same tick and the fast one ends first, so start times
 * (and collection order) used to put the fast call first on some runs.
 */
import { describe, expect, it } from 'vitest';
import { invoke } from '../../src/engine/invoke.js';
import { ScriptedModel } from '../../src/engine/providers/scripted.js';
import { revisionFromValue } from '../../src/engine/revision/load-build.js';
import { installTracing } from '../../src/spans/tracing.js';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { runChecks } from '../../src/verdicts/run-checks.js';
import { scoreTestRun } from '../../src/verdicts/test-run-verdict.js';

const revision = revisionFromValue({
  id: 'order-bot',
  agent: {
    name: 'Order bot',
    tools: [
      { name: 'slow_cmd', description: 'Slow.', parameters: { type: 'object' }, command: { argv: ['node', '-e', 'setTimeout(()=>{},150)'] } },
      { name: 'fast', description: 'Fast.', parameters: { type: 'object' }, returns: { ok: true } },
    ],
  },
});

const checks = [
  { tool_order: { before: ['slow_cmd'], after: 'fast' } },
  { tool_sequence: { calls: [{ tool: 'slow_cmd' }, { tool: 'fast' }] } },
  { tool_sequence: { mode: 'in_order', calls: [{ tool: 'slow_cmd' }, { tool: 'fast' }] } },
  // Calls of one response may come in any order, in in_order as in strict.
  { tool_sequence: { mode: 'in_order', calls: [{ tool: 'fast' }, { tool: 'slow_cmd' }] } },
];

/** One invoke; what the verdict layer concludes about call order. */
async function runOnce() {
  const { tracer, store } = installTracing();
  const model = new ScriptedModel([
    {
      tool_calls: [
        { name: 'slow_cmd', args: {} },
        { name: 'fast', args: {} },
      ],
    },
    { text: 'done' },
  ]);
  const turn = await invoke(revision, { messages: [{ role: 'user', content: 'go' }] }, { model, tracer });
  const spans = store.take(turn.trace_id);
  const evidence = buildEvidence({ spans });
  const score = scoreTestRun({ spans, stop_reason: turn.stop_reason, evidence });
  return {
    stop_reason: turn.stop_reason,
    calls: evidence.calls.map((call) => call.name),
    digest: score.tools,
    checks: runChecks(checks, evidence).map(({ kind, status, reason }) => ({ kind, status, reason })),
  };
}

describe('call order through the engine (slow command, then fast returns, in one response)', () => {
  it('gives the same digest and check results, in call order, on every run', async () => {
    // The first invoke in a process does more synchronous set-up between the two calls' span
    // starts, so their start times seldom tie; after it they tie on most runs. It is checked too.
    const runs = [await runOnce()];
    for (let i = 0; i < 5; i++) runs.push(await runOnce());
    const first = runs[0];
    expect(first.stop_reason).toBe('end_turn');
    expect(first.calls).toEqual(['slow_cmd', 'fast']);
    expect(first.digest).toEqual([
      { name: 'slow_cmd', called: 1, returned: 1, errors: 0 },
      { name: 'fast', called: 1, returned: 1, errors: 0 },
    ]);
    expect(first.checks).toEqual([
      // One response's calls are parallel: neither precedes the other, whatever order they ran in.
      {
        kind: 'tool_order',
        status: 'fail',
        reason:
          'expected every slow_cmd call before the first fast (call 2); slow_cmd was call 1, asked for in the same model response (turn 0): parallel calls are not ordered; saw slow_cmd x1, fast x1',
      },
      { kind: 'tool_sequence', status: 'pass', reason: 'strict: the 2 calls matched in order; saw slow_cmd x1, fast x1' },
      { kind: 'tool_sequence', status: 'pass', reason: 'in_order: the 2 expected calls appeared in order; saw slow_cmd x1, fast x1' },
      { kind: 'tool_sequence', status: 'pass', reason: 'in_order: the 2 expected calls appeared in order; saw slow_cmd x1, fast x1' },
    ]);
    for (const run of runs.slice(1)) expect(run).toEqual(first);
  });
});
