import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
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

/** A project's script that invokes the agent with a script, or with a Model of its own, and prints whether content was captured. */
const INVOKE_SCRIPT = `import { installTracing, invoke, loadAgentBuild } from 'agentcheck';
const own = { provider: 'mine', modelId: 'm1', generate: async () => ({ text: 'ok', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: { input_tokens: 1, output_tokens: 1 } }) };
const { tracer, store } = installTracing();
const options = process.argv[2] === 'model' ? { model: own } : { script: [{ text: 'ok' }] };
try {
  const turn = await invoke(loadAgentBuild('agent.yaml'), { messages: [{ role: 'user', content: 'go' }] }, { ...options, tracer });
  const chat = store.take(turn.trace_id).find((span) => span.name.startsWith('chat '));
  console.log(JSON.stringify({ captured: chat.attributes['gen_ai.input.messages'] !== undefined }));
} catch (error) {
  console.log(JSON.stringify({ error: error.name, message: error.message }));
}
`;

describe("the library's invoke follows the same switch (built package)", () => {
  /** Runs the script in a project that installed agentcheck, with the variable set to `value` (unset when undefined). */
  async function invokeWith(value: string | undefined, how: 'script' | 'model' = 'script'): Promise<Record<string, unknown>> {
    const project = tempDir({ 'package.json': '{"type":"module"}', 'agent.yaml': AGENT_YAML, 'invoke.mjs': INVOKE_SCRIPT });
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(ROOT, join(project, 'node_modules', 'agentcheck'), 'dir');
    const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
    if (value !== undefined) env[VARIABLE] = value;
    const result = await execa('node', ['invoke.mjs', how], { cwd: project, env, extendEnv: false, reject: false });
    expect(result.exitCode, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  it('captures a scripted run by default and not when the variable is false', async () => {
    expect(await invokeWith(undefined)).toEqual({ captured: true });
    expect(await invokeWith('false')).toEqual({ captured: false });
  });

  it("captures a Model of the caller's own when the variable is true", async () => {
    expect(await invokeWith(undefined, 'model')).toEqual({ captured: false });
    expect(await invokeWith('true', 'model')).toEqual({ captured: true });
  });

  it('refuses another value with a ConfigError naming the variable', async () => {
    expect(await invokeWith('maybe')).toEqual({ error: 'ConfigError', message: `${VARIABLE}: expected true or false, got "maybe"` });
  });
});
