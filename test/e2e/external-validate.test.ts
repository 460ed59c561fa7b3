import { describe, expect, it } from 'vitest';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

describe('agentcheck validate on external agent builds', () => {
  // The files of the first four tests are one folder, validated once; each test reads the lines
  // about its own files. The summary counts them all: 3 + 5 + 5 + 2 problems in 2 + 4 + 4 + 1
  // files; valid: good.yaml, interpreted.yaml and the approvals test's agent.yaml.
  const refused = shared(async (folder) => {
    const dir = folder({
      'both.yaml': 'id: both\nagent: {instructions: hi}\nexternal: {command: [node, ./agent.mjs]}\n',
      'agent.mjs': '',
      'missing.yaml': 'id: missing\nexternal:\n  command: [node, ./missing.mjs]\n',
      'good.yaml': 'id: good\nexternal:\n  command: [node, ./agent.mjs]\n',
      'templated.yaml': 'id: templated\nexternal:\n  http:\n    url: "http://{{ env.HOST }}/invoke"\n',
      'port.yaml': 'id: port\nexternal:\n  http:\n    url: "http://127.0.0.1:{port}{port}/invoke"\n    start: {command: [node, s.mjs]}\n',
      'headers.yaml': 'id: headers\nexternal:\n  http:\n    url: "http://127.0.0.1:8080/invoke"\n    headers: {Bad Header: v, X-Token: "line\\nbreak"}\n',
      'env-port.yaml':
        'id: env-port\nexternal:\n  env:\n    PORT: "8080"\n  http:\n    url: "http://127.0.0.1:{port}/invoke"\n    start: {command: [node, s.mjs]}\n',
      'http/.keep': '',
      'pkg/index.js': '',
      'folder.yaml': 'id: folder\nexternal:\n  command: [./http]\n',
      'interpreted.yaml': 'id: interpreted\nexternal:\n  command: [node, ./pkg]\n',
      'ports.yaml': 'id: ports\nexternal:\n  http:\n    url: "http://127.0.0.1:99999/x"\n    spans_url: "http://127.0.0.1:70000/t/{trace_id}"\n',
      'zero.yaml': 'id: zero\nexternal:\n  http: {url: "http://127.0.0.1:0/x"}\n',
      'user.yaml': 'id: user\nexternal:\n  http: {url: "http://user@127.0.0.1:1/x"}\n',

      'agent.yaml': 'id: ext\nexternal:\n  command: [node, ./agent.mjs]\n  tools:\n    - {name: refund_order}\n',
      'x.scenarios.yaml': `scenarios:
  - name: with approvals
    agent: agent.yaml
    inputs: {messages: [{role: user, content: hi}]}
    approvals: {tools: {refund_order: deny}}
  - name: with resume
    agent: agent.yaml
    inputs: {messages: [{role: user, content: hi}]}
    resume: [{decision: approve}]
`,
      'approvals.yaml': 'default: approve\n',
      'script.yaml': '- text: hi\n',
    });
    return { dir, result: await runCli(['validate', '.'], dir) };
  });
  const SUMMARY = '15 problem(s) in 11 file(s); valid: 3 agent build(s)';

  it('says "agent" and "external" clash, beside the problems of the incomplete agent block, and finds a missing ./ command file', async () => {
    const { dir, result } = await refused();
    expect(result.exitCode, result.all).toBe(2);
    expect(result.all).toMatch(
      /both\.yaml:2:1 at agent: "agent" and "external" cannot both be given: a build names exactly one of "agent" \(with an optional "flow"\) and "external"/,
    );
    // The block that clashes is checked too: one pass says what is wrong inside it.
    expect(result.all).toMatch(/both\.yaml:2:8 at agent: missing required key "name"/);
    expect(result.all).toContain(
      `missing.yaml:3:19 at external.command[1]: "./missing.mjs" does not exist: ./ and ../ paths of a command are relative to the build file's folder, so expected a file at ${dir}/missing.mjs`,
    );
    expect(result.all).toContain(SUMMARY);
  });

  it('refuses, at their line, http settings that could never be sent (every run would error)', async () => {
    const { result } = await refused();
    expect(result.exitCode, result.all).toBe(2);
    expect(result.all).toContain(
      'templated.yaml:4:10 at external.http.url: templates are not filled in here (only external.http.headers take {{ env.NAME }}); write the URL, got "http://{{ env.HOST }}/invoke"',
    );
    expect(result.all).toContain(
      'port.yaml:4:10 at external.http.url: expected an absolute URL such as "https://api.example.com/items", got "http://127.0.0.1:{port}{port}/invoke"',
    );
    expect(result.all).toContain('headers.yaml:5:15 at external.http.headers["Bad Header"]: header name "Bad Header" cannot be sent: it holds " "');
    expect(result.all).toContain('headers.yaml:5:39 at external.http.headers.X-Token: a header value cannot hold a line break (LF, character 5 of the value)');
    expect(result.all).toContain('env-port.yaml:4:5 at external.env.PORT: "PORT" is set by agentcheck to the free port the server of http.start listens on');
  });

  it('refuses a folder as the program (an interpreter may still be given one), a port out of range and any userinfo, at their line', async () => {
    const { dir, result } = await refused();
    expect(result.exitCode, result.all).toBe(2);
    expect(result.all).toContain(
      `folder.yaml:3:13 at external.command[0]: "./http" is the program the command runs, so expected a file at ${dir}/http, found a folder`,
    );
    expect(result.all).not.toContain('interpreted.yaml');
    expect(result.all).toContain('ports.yaml:4:10 at external.http.url: port 99999 is out of range: a port is 1-65535, got "http://127.0.0.1:99999/x"');
    expect(result.all).toContain(
      'ports.yaml:5:16 at external.http.spans_url: port 70000 is out of range: a port is 1-65535, got "http://127.0.0.1:70000/t/{trace_id}"',
    );
    expect(result.all).toContain('zero.yaml:3:15 at external.http.url: port 0 is out of range: a port is 1-65535, got "http://127.0.0.1:0/x"');
    expect(result.all).toContain(
      'user.yaml:3:15 at external.http.url: a URL with userinfo before its host (user@ or user:password@) cannot be sent (fetch refuses any)',
    );
    expect(result.all).toContain(SUMMARY);
  });

  it('refuses approvals and resume for an external agent, which has no approval gates (validate, run, test-run)', async () => {
    const { dir, result: validate } = await refused();
    expect(validate.exitCode, validate.all).toBe(2);
    expect(validate.all).toMatch(
      /x\.scenarios\.yaml:5:5 at scenarios\[0\]\.approvals: an external agent has no approval gates: its tools run in its own code, which agentcheck cannot pause or answer; remove approvals/,
    );
    expect(validate.all).toMatch(
      /x\.scenarios\.yaml:9:5 at scenarios\[1\]\.resume: an external agent has no approval gates: .*so its run never pauses and resume has nothing to answer; remove resume/,
    );

    const run = await runCli(['run', 'x.scenarios.yaml'], dir);
    expect(run.exitCode, run.all).toBe(2);
    expect(run.all).toContain('at scenarios[1].resume: an external agent has no approval gates');

    const testRun = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 'script.yaml', '--approvals', 'approvals.yaml'], dir);
    expect(testRun.exitCode, testRun.all).toBe(2);
    expect(testRun.stderr).toMatch(/approvals\.yaml:1:1: an external agent has no approval gates/);
  });

  it('runs an external agent without --script: one that never calls the model needs none (test-run as the library)', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: ext\nexternal:\n  command: [sh, ./agent.sh]\n',
      // Reads the request, answers without calling the model (a shell: a fraction of a node process's CPU).
      'agent.sh': 'cat > /dev/null\nprintf \'{"output": "done"}\'\n',
    });
    const noScript = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--json'], dir);
    expect(noScript.exitCode, noScript.all).not.toBe(2);
    const result = JSON.parse(noScript.stdout) as { output: string; verdict: string; stop_reason: string };
    expect(result).toMatchObject({ output: 'done', verdict: 'unconfirmed' });
    expect(result.stop_reason).not.toBe('error');
  });
});
