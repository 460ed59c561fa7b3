import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, type onTestFinished } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

// A plain-fetch command agent; `config.mode` says how it ends. Its SIGTERM handler comes first,
// so it is in place however slowly the process starts.
const AGENT = `const mode = JSON.parse(await new Promise((done) => { let t = ''; process.stdin.on('data', (c) => (t += c)); process.stdin.on('end', () => done(t)); })).config.mode;
if (mode === 'exit-on-term') process.on('SIGTERM', () => { process.stderr.write('stopping on SIGTERM'); process.exit(1); });
const ask = () => fetch(process.env.OPENAI_BASE_URL + '/chat/completions', {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }] }),
}).then((r) => r.text());
if (mode === 'call-then-fail') { await ask(); process.stderr.write('failing after the call'); process.exit(2); }
if (mode === 'call-then-sleep' || mode === 'exit-on-term') { await ask(); await new Promise((done) => setTimeout(done, 600000)); }
if (mode === 'trace-id') process.stdout.write(JSON.stringify({ output: 'ok', trace_id: 'engine-trace-42' }));
`;

/** The agent's build, giving it `timeoutMs`. */
function buildYaml(timeoutMs: number): string {
  return `id: ext\nexternal:\n  command: [node, ./agent.mjs]\n  timeout_ms: ${timeoutMs}\n  tools: [{name: lookup}]\n`;
}

/** A folder with the agent, its build (`timeout_ms` given) and a script whose model asks for lookup. */
function agentDir(timeoutMs: number, finished: typeof onTestFinished): string {
  return tempDir(
    {
      'agent.mjs': AGENT,
      'agent.yaml': buildYaml(timeoutMs),
      'script.yaml': '- tool_calls: [{name: lookup, args: {id: "1"}}]\n- text: done\n',
    },
    finished,
  );
}

/** test-run of the agent in `mode`, expecting lookup; its JSON result. */
async function testRun(dir: string, mode: string, extra: string[] = []): Promise<{ verdict: string; verdict_reason: string }> {
  const delta = join(dir, `${mode}.delta.yaml`);
  writeFileSync(delta, `set: {external: {config: {mode: ${mode}}}}\n`);
  const result = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--delta', delta, '--script', 'script.yaml', '--json', ...extra], dir);
  expect(result.exitCode, result.all).toBe(1);
  return JSON.parse(result.stdout) as { verdict: string; verdict_reason: string };
}

/**
 * The agent's other endings, scenarios of one suite run once (concurrently: two of them mostly
 * wait out the agent's time limit): each row's run is what test-run gives for the same build.
 */
const suite = shared(async (dir) => {
  const scenario = (name: string, agent: string, mode: string, script: string, terminal = '') => `  - name: ${name}
    agent: ${agent}
    delta: {set: {external: {config: {mode: ${mode}}}}}
    inputs: {messages: [{role: user, content: hi}]}
    model: {script: ${script}}
${terminal ? `    expect: {terminal_tool: ${terminal}}\n` : ''}`;
  const lookup = '[{tool_calls: [{name: lookup, args: {id: "1"}}]}, {text: done}]';
  const cwd = dir({
    'agent.mjs': AGENT,
    'quick.yaml': buildYaml(5000),
    'slow.yaml': buildYaml(20000),
    'endings.scenarios.yaml': `scenarios:
${scenario('sleeps', 'quick.yaml', 'call-then-sleep', lookup, 'lookup')}${scenario('exits on term', 'quick.yaml', 'exit-on-term', lookup, 'lookup')}${scenario('trace id', 'slow.yaml', 'trace-id', '[{text: done}]')}`,
  });
  const result = await runCli(['run', '.', '--reporter', 'json', '--out', 'out', '--concurrency', '3'], cwd);
  const report = JSON.parse(readFileSync(join(cwd, 'out/report.json'), 'utf8')) as Report;
  const row = (name: string) => report.scenarios.find((one) => one.name === name)!;
  const spans = readFileSync(join(cwd, 'out/spans.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SpanRecord);
  return { result, row, spans };
});

// Concurrent: the test-run has its own folder and CLI process, and the suite's tests wait on one run.
describe.concurrent('an external agent that fails or runs out of time with a tool call unanswered', () => {
  it("test-run's verdict names the agent's failure and its stderr, not the unanswered call", async ({ onTestFinished }) => {
    const result = await testRun(agentDir(20000, onTestFinished), 'call-then-fail', ['--terminal-tool', 'lookup']);
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toBe(
      'the invoke errored (EXTERNAL_AGENT_FAILED: the external agent failed: node exited with code 2; stderr: failing after the call)',
    );
  });

  // timeout_ms is only how long the agent is given: it sleeps far longer, whatever the machine's speed.
  it('names EXTERNAL_AGENT_TIMEOUT, and says SIGTERM stopped the agent', async () => {
    const { result, row } = await suite();
    expect(result.exitCode, result.all).toBe(1);
    expect(row('sleeps').test_run?.verdict).toBe('failed');
    expect(row('sleeps').test_run?.verdict_reason).toBe(
      'the invoke errored (EXTERNAL_AGENT_TIMEOUT: the external agent node timed out after 5000 ms and was stopped (SIGTERM); stderr: (stderr was empty))',
    );
  });

  it('says an agent that exited by itself on SIGTERM was stopped, with its exit code, not killed', async () => {
    const { result, row } = await suite();
    expect(result.exitCode, result.all).toBe(1);
    expect(row('exits on term').test_run?.verdict_reason).toBe(
      'the invoke errored (EXTERNAL_AGENT_TIMEOUT: the external agent node timed out after 5000 ms and was stopped: it exited with code 1 after SIGTERM; stderr: stopping on SIGTERM)',
    );
  });
});

describe("an external agent's answer", () => {
  it("records the trace_id its answer gave on the run's root span", async () => {
    const { result, row, spans } = await suite();
    // Unconfirmed (no terminal tool): the suite fails, the spans written all the same.
    expect(result.exitCode, result.all).toBe(1);
    expect(row('trace id').test_run?.verdict).toBe('unconfirmed');
    const root = spans.find((span) => span.trace_id === row('trace id').test_run?.trace_id && span.parent_id === null);
    expect(root?.attributes['agentcheck.external.trace_id']).toBe('engine-trace-42');
  });
});
