import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureMessage, MAX_FAILURE_JSON_CHARS } from '../../../src/engine/tools/failed-call.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { memoryLocator } from '../../../src/config/assert-format.js';
import { buildEvidence } from '../../../src/verdicts/evidence.js';
import { runChecks, validateChecks } from '../../../src/verdicts/run-checks.js';
import { scoreTestRun } from '../../../src/verdicts/test-run-verdict.js';
import { NO_MODEL_CALL, runScripted } from '../../helpers/run-agent.js';
import { tempDir } from '../../helpers/temp-dir.js';

const server = setupServer(
  http.get('https://shop.test/down', () => HttpResponse.error()),
  http.get('https://shop.test/broken', () => HttpResponse.text('upstream down', { status: 503 })),
  http.get('https://shop.test/missing', () => HttpResponse.json({ error: 'no such order' }, { status: 404 })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const tools = [
  { name: 'api_down', description: 'Unreachable.', http: { url: 'https://shop.test/down' } },
  { name: 'api_broken', description: 'Answers 503.', http: { url: 'https://shop.test/broken' } },
  { name: 'api_missing', description: 'Answers 404.', http: { url: 'https://shop.test/missing' } },
  { name: 'says_error', description: 'Answers an error object.', returns: { status: 'error', message: 'bad thing' } },
  { name: 'flags_error', description: 'Answers is_error.', returns: { is_error: true, error: 'flagged' } },
  {
    name: 'read_both',
    description: 'Reads a file that is not there.',
    chain: { steps: [{ id: 'first', tool: 'read_file', inputs: { path: 'missing.txt' } }] },
  },
];

/** Runs a one-step flow calling `tool`; returns its spans. */
async function oneStep(tool: string) {
  const revision = revisionFromValue({
    id: 'errors',
    agent: { name: 'Errors', tools },
    flow: {
      entry_point: 'step',
      components: [{ name: 'step', type: 'deterministic_step', tool_name: tool, inputs: [] }],
      routers: [{ from: 'step', to: 'end' }],
    },
  });
  const { turn, spans } = await runScripted(revision, NO_MODEL_CALL, { workspace: FolderWorkspace.at(tempDir()) });
  expect(turn.stop_reason).toBe('end_turn');
  return spans;
}

/** Runs a one-step flow calling `tool`; checks the step failed and returns its error message. */
async function failingStep(tool: string) {
  const spans = await oneStep(tool);
  const root = spans.find((span) => span.parent_id === null) as SpanRecord;
  const state = JSON.parse(String(root.attributes['agentcheck.flow.state']));
  const entry = state.ui_chat_log[0];
  expect(entry).toMatchObject({ type: 'tool', component: 'step', tool, status: 'error' });
  expect(state.context.step.tool_result).toBeNull();
  expect(entry.error).toBe(state.context.step.error);
  return state.context.step.error as string;
}

describe('flows: a step fails as a chain step does', () => {
  it('on an answer with status: "error" or is_error: true, whose message is the error', async () => {
    expect(await failingStep('says_error')).toBe('bad thing');
    expect(await failingStep('flags_error')).toBe('flagged');
  });

  it('and its execute_tool span says so, so the verdict, no_tool_errors and tool_returned see the same failure', async () => {
    for (const [tool, message] of [
      ['says_error', 'bad thing'],
      ['flags_error', 'flagged'],
    ]) {
      const spans = await oneStep(tool);
      const call = spans.find((span) => span.name === `execute_tool ${tool}`) as SpanRecord;
      expect(call.attributes).toMatchObject({ 'agentcheck.tool.outcome': 'error', 'agentcheck.tool.is_error': true, 'error.type': 'tool_error' });
      expect([call.status, call.status_message]).toEqual(['error', message]);
      const score = scoreTestRun({ spans, stop_reason: 'end_turn', terminal_tool: tool });
      expect([score.verdict, score.verdict_reason]).toEqual(['failed', `tool ${tool} failed: tool_error (${message})`]);
      const checks = [{ no_tool_errors: {} }, { tool_returned: { tool } }];
      validateChecks(checks, memoryLocator('scenario.yaml', ['expect', 'checks']));
      expect(runChecks(checks, buildEvidence({ spans })).map((r) => r.status)).toEqual(['fail', 'fail']);
    }
  });
});

describe('flows: a failing step writes the error message, not a serialised result', () => {
  it("a chain tool that fails: the chain's own error text", async () => {
    const error = await failingStep('read_both');
    expect(error).toMatch(/^step first \(read_file\) failed: .*missing\.txt/);
    expect(error).not.toContain('chain_id');
  });

  it('an http network failure: the inner error string', async () => {
    expect(await failingStep('api_down')).toMatch(/^api_down: GET https:\/\/shop.test\/down failed: /);
  });

  it('a non-2xx http answer: HTTP <status>: <short body>', async () => {
    expect(await failingStep('api_broken')).toBe('HTTP 503: upstream down');
    expect(await failingStep('api_missing')).toBe('HTTP 404: {"error":"no such order"}');
  });
});

describe('failureMessage', () => {
  it('takes a string as the message, then an error or message field, then compact JSON (capped)', () => {
    expect(failureMessage('boom')).toBe('boom');
    expect(failureMessage({ error: 'net: refused', other: 1 })).toBe('net: refused');
    expect(failureMessage({ error: '', message: 'bad input' })).toBe('bad input');
    expect(failureMessage({ status: 500, body: '' })).toBe('HTTP 500');
    expect(failureMessage({ status: 502, body: 'y'.repeat(500) })).toBe(`HTTP 502: ${'y'.repeat(200)}[truncated 300 characters]`);
    expect(failureMessage({ exit_code: 2, stdout: '', stderr: 'no' })).toBe('{"exit_code":2,"stdout":"","stderr":"no"}');
    expect(failureMessage(null)).toBe('null');
    const big = failureMessage({ items: 'z'.repeat(2 * MAX_FAILURE_JSON_CHARS) });
    expect(big.startsWith('{"items":"zzz')).toBe(true);
    expect(big).toMatch(/\[truncated \d+ characters\]$/);
    expect(big.length).toBeLessThan(MAX_FAILURE_JSON_CHARS + 40);
  });
});
