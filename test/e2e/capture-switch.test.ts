import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { once, sharedDir } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, ROOT, runCli } from './cli.js';

const VARIABLE = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

describe('the content-capture switch (built CLI)', () => {
  it('a value other than true or false is invalid input before anything runs', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
    const result = await runCli(['run', '.', '--out', 'out'], dir, { [VARIABLE]: 'bogus' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${VARIABLE}: expected true or false, got "bogus"`);
    expect(existsSync(join(dir, 'out/report.json'))).toBe(false);
  });
});

/**
 * A project's script that invokes the agent, for each mode its arguments name (`script`: with a
 * script, `model`: with a Model of its own), and prints one line per mode: whether content was captured.
 */
const INVOKE_SCRIPT = `import { installTracing, invoke, loadAgentBuild } from 'agentcheck';
const own = { provider: 'mine', modelId: 'm1', generate: async () => ({ text: 'ok', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: { input_tokens: 1, output_tokens: 1 } }) };
const { tracer, store } = installTracing();
for (const how of process.argv.slice(2)) {
  const options = how === 'model' ? { model: own } : { script: [{ text: 'ok' }] };
  try {
    const turn = await invoke(loadAgentBuild('agent.yaml'), { messages: [{ role: 'user', content: 'go' }] }, { ...options, tracer });
    const chat = store.take(turn.trace_id).find((span) => span.name.startsWith('chat '));
    console.log(JSON.stringify({ captured: chat.attributes['gen_ai.input.messages'] !== undefined }));
  } catch (error) {
    console.log(JSON.stringify({ error: error.name, message: error.message }));
  }
}
`;

describe("the library's invoke follows the same switch (built package)", () => {
  // One project for every process (nothing writes to it), and one process per value of the
  // variable, which invokes once per mode: a process loads the package, most of its CPU.
  const project = sharedDir({ 'package.json': '{"type":"module"}', 'agent.yaml': AGENT_YAML, 'invoke.mjs': INVOKE_SCRIPT });
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'agentcheck'), 'dir');

  /** Runs the script with the variable set to `value` (unset when undefined): what each mode of `hows` printed, by mode. */
  async function invokeWith(value: string | undefined, hows: Array<'script' | 'model'>): Promise<Record<string, unknown>> {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
    if (value !== undefined) env[VARIABLE] = value;
    const result = await execa('node', ['invoke.mjs', ...hows], { cwd: project, env, extendEnv: false, reject: false });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines, result.stdout).toHaveLength(hows.length);
    return Object.fromEntries(hows.map((how, i) => [how, lines[i]]));
  }
  // Unset: both modes in one process, read by the first two tests.
  const unset = once(() => invokeWith(undefined, ['script', 'model']));

  it('captures a scripted run by default and not when the variable is false', async () => {
    expect((await unset()).script).toEqual({ captured: true });
    expect((await invokeWith('false', ['script'])).script).toEqual({ captured: false });
  });

  it("captures a Model of the caller's own when the variable is true", async () => {
    expect((await unset()).model).toEqual({ captured: false });
    expect((await invokeWith('true', ['model'])).model).toEqual({ captured: true });
  });

  it('refuses another value with a ConfigError naming the variable', async () => {
    expect((await invokeWith('maybe', ['script'])).script).toEqual({ error: 'ConfigError', message: `${VARIABLE}: expected true or false, got "maybe"` });
  });
});
