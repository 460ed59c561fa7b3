import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

/** A command agent that prints its whole environment to stderr, echoes its token on stdout and exits 1. */
const AGENT = `console.error('my env: ' + JSON.stringify(process.env));
process.stdout.write('partial answer with ' + process.env.SERVICE_TOKEN);
process.exit(1);
`;

/** A command agent printing the MY_SETTING and SERVICE_TOKEN it got, its build with external.env `env`, and a scenario of it. */
function envtFiles(env: string): Record<string, string> {
  return {
    // A shell script: it starts for a fraction of a node process's CPU.
    'agent.yaml': `id: envt\nexternal:\n  command: [sh, ./agent.sh]\n  env: {${env}}\n`,
    'agent.sh': `printf 'MY_SETTING=%s token=%s' "$MY_SETTING" "$SERVICE_TOKEN"\n`,
    'envt.scenario.yaml':
      'name: envt\nagent: agent.yaml\ninputs: {messages: [{role: user, content: x}]}\nexpect: {checks: [{output: {contains: "MY_SETTING=realvalue"}}]}\n',
  };
}

/** An external http build `id` sending `headers` (YAML flow entries), and a scenario of it. */
function headerAgent(id: string, headers: string): Record<string, string> {
  return {
    [`${id}.yaml`]: `id: ${id}\nexternal:\n  http:\n    url: http://127.0.0.1:9/invoke\n    headers: {${headers}}\n`,
    [`${id}.scenario.yaml`]: `name: header agent\nagent: ${id}.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\n`,
  };
}

// The runs that error before any agent starts (a header or an env entry that cannot be filled)
// are files of one suite, run once with one environment; each test reads its own file's row, and
// what each must never show is looked for in everything the run wrote or printed.
const refusedBeforeStart = shared(async (folder) => {
  const dir = folder({
    ...headerAgent('unset', 'Authorization: "Bearer {{ env.SERVICE_TOKN }}"'),
    ...headerAgent('broken', 'X-Token: "{{ env.SERVICE_TOKEN }}"'),
    ...envtFiles('MY_SETTING: "{{ env.BB_Y }}"'),
  });
  const result = await runCli(['run', '.', '--reporter', 'table,json', '--out', 'out'], dir, {
    // Set, close to the unset SERVICE_TOKN, and a value no header may hold.
    SERVICE_TOKEN: 'tok-line-one-123\ntok-line-two-456',
    BB_X: 'realvalue',
    UNRELATED_RUNNER_VARIABLE: 'v',
    ANOTHER_RUNNER_NAME: 'w',
  });
  const report = readFileSync(join(dir, 'out/report.json'), 'utf8');
  const rows = (JSON.parse(report) as Report).scenarios;
  const rowOf = (file: string) => rows.find((row) => row.file === join(dir, file))!;
  return { result, rowOf, everything: result.all + report };
});

describe('an external agent that prints its secrets', () => {
  it('never gets them into report.json, the terminal or spans.jsonl', async () => {
    const dir = tempDir({
      'agent.yaml': `id: leaky
external:
  command: [node, ./agent.mjs]
  env: {SERVICE_TOKEN: tok-literal-secret-123, DB_PASSWORD: pw-literal-secret-456, MODE: plain-mode-value}
`,
      'agent.mjs': AGENT,
      'leak.scenario.yaml': `name: leak
agent: agent.yaml
inputs: {messages: [{role: user, content: hi}]}
model: {script: [{text: ok}]}
`,
    });
    const out = join(dir, 'out');
    const result = await runCli(['run', 'leak.scenario.yaml', '--reporter', 'table,json,md,junit', '--out', out], dir);
    expect(result.exitCode, result.all).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const row = report.scenarios[0];
    expect(row.status).toBe('error');
    // The error still quotes the stderr: what is not a secret stays readable.
    expect(JSON.stringify(row)).toContain('EXTERNAL_AGENT_FAILED');
    expect(JSON.stringify(row)).toContain('plain-mode-value');
    expect(result.all).toContain('[redacted]');
    const written = ['report.json', 'spans.jsonl', 'report.md', 'junit.xml'].map((file) => readFileSync(join(out, file), 'utf8')).join('\n') + result.all;
    for (const secret of ['tok-literal-secret-123', 'pw-literal-secret-456', 'agentcheck-model-bridge']) expect(written).not.toContain(secret);
  });

  it("names an unset {{ env.X }} of an http header with a close name only, never the environment's names", async () => {
    const { result, rowOf, everything } = await refusedBeforeStart();
    expect(result.exitCode, result.all).toBe(1);
    const row = rowOf('unset.scenario.yaml');
    expect(row.status).toBe('error');
    expect(row.error?.message).toContain(
      'external.http.headers.Authorization needs the environment variable SERVICE_TOKN, which is not set; did you mean "SERVICE_TOKEN"?',
    );
    for (const name of ['UNRELATED_RUNNER_VARIABLE', 'ANOTHER_RUNNER_NAME', 'PATH', 'HOME']) expect(everything).not.toContain(name);
  });

  it('names a header whose filled {{ env.X }} value cannot be sent (a line break), never quoting the value', async () => {
    // X-Token is no secret-looking name: nothing would have redacted the value.
    const { result, rowOf, everything } = await refusedBeforeStart();
    expect(result.exitCode, result.all).toBe(1);
    const row = rowOf('broken.scenario.yaml');
    expect(row.status).toBe('error');
    expect(row.error?.type).toBe('EXTERNAL_AGENT_FAILED');
    expect(row.error?.message).toContain(
      'external.http.headers.X-Token (filled from env.SERVICE_TOKEN) cannot be sent: a header value cannot hold a line break (LF, character 17 of the value)',
    );
    for (const part of ['tok-line-one-123', 'tok-line-two-456', 'Headers.append']) expect(everything).not.toContain(part);
  });
});

describe('an external agent whose external.env reads the environment as {{ env.NAME }}', () => {
  it("gets the values filled from agentcheck's environment, a secret-named one scrubbed from everything written", async () => {
    const dir = tempDir(envtFiles('MY_SETTING: "{{ env.BB_X }}", SERVICE_TOKEN: "{{ env.CI_PLAIN }}"'));
    const result = await runCli(['run', 'envt.scenario.yaml', '--reporter', 'table,json', '--out', 'out'], dir, {
      BB_X: 'realvalue',
      CI_PLAIN: 'tok-from-ci-0123456',
    });
    expect(result.exitCode, result.all).toBe(0);
    const report = readFileSync(join(dir, 'out/report.json'), 'utf8');
    const row = (JSON.parse(report) as Report).scenarios[0];
    expect(row.test_run?.output).toBe('MY_SETTING=realvalue token=[redacted]');
    expect(report + readFileSync(join(dir, 'out/spans.jsonl'), 'utf8') + result.all).not.toContain('tok-from-ci-0123456');
  });

  it('errors the run naming the entry and an unset variable, with a close name only', async () => {
    const { result, rowOf, everything } = await refusedBeforeStart();
    expect(result.exitCode, result.all).toBe(1);
    const row = rowOf('envt.scenario.yaml');
    expect(row.status).toBe('error');
    expect(row.error).toMatchObject({
      type: 'TEMPLATE_UNDEFINED',
      message: expect.stringContaining('external.env.MY_SETTING needs the environment variable BB_Y, which is not set; did you mean "BB_X"?'),
    });
    expect(everything).not.toContain('UNRELATED_RUNNER_VARIABLE');
  });
});
