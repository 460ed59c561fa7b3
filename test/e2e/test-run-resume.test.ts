import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { waitForPidFile, waitUntilGone } from '../helpers/process-state.js';
import { shared } from '../helpers/shared-fixture.js';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { tempDir } from '../helpers/temp-dir.js';
import { CLI, ROOT, runCli } from './cli.js';

import { AGENT, base, pause, SCRIPT, WORKSPACE } from './test-run-resume-fixture.js';

/**
 * One run paused at its gated write, without --json (--spans 'my runs/spans.jsonl'): read by the
 * test of the resume command it prints, the deny test and the damaged-checkpoint test. Each
 * resumes its own copy of the runs folder (copyPausedRun), as a copied runs folder resumes in the
 * copy and leaves the original alone (docs/cli.md, resume).
 */
const pausedRun = shared(async (dir) => {
  const root = dir({ 'script.yaml': SCRIPT });
  const paused = await runCli([...base, '--spans', 'my runs/spans.jsonl'], root);
  expect(paused.exitCode, paused.all).toBe(1);
  expect(paused.stdout).toContain('stop reason: paused');
  const hint = /continue with agentcheck (resume .*)$/m.exec(paused.stdout)?.[1];
  const runId = /^resume ([0-9a-f]{32}) /.exec(hint ?? '')?.[1];
  expect(runId, paused.stdout).toBeDefined();
  return { root, hint: hint!, runId: runId! };
});

/** A folder of its own holding a copy of the paused run's runs folder (with its spans.jsonl) as `name`. */
async function copyPausedRun(name = 'out'): Promise<{ dir: string; runId: string; hint: string }> {
  const { root, runId, hint } = await pausedRun();
  const dir = tempDir();
  cpSync(join(root, 'my runs'), join(dir, name), { recursive: true });
  return { dir, runId, hint };
}

describe('agentcheck test-run pause -> agentcheck resume (built CLI)', () => {
  it('deny: the run goes on from its checkpoint and the workspace stays unchanged', async () => {
    const { dir, runId } = await copyPausedRun();
    const checkpoint = join(dir, 'out', `${runId}.checkpoint.json`);
    const workspace = join(dir, 'out', `${runId}.workspace`);
    expect(existsSync(checkpoint)).toBe(true);
    expect(readFileSync(join(workspace, 'src/math.js'), 'utf8')).toBe(readFileSync(join(WORKSPACE, 'src/math.js'), 'utf8'));

    const resumed = await runCli(['resume', runId, '--decision', 'deny', '--spans', 'out/spans.jsonl', '--json'], dir);
    expect(resumed.exitCode, resumed.all).toBe(1);
    const printed = JSON.parse(resumed.stdout);
    expect(printed).toMatchObject({ stop_reason: 'end_turn', output: 'Done.', approvals: [{ tool: 'write_file', decision: 'deny' }] });
    expect(printed.run_id).toBeUndefined();
    expect(existsSync(join(workspace, 'CHANGELOG.md'))).toBe(false);
    // Answered once: the checkpoint is gone, and both traces are in the spans file.
    expect(existsSync(checkpoint)).toBe(false);
    const traces = new Set(
      readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).trace_id),
    );
    expect(traces).toEqual(new Set([runId, printed.trace_id]));
    // The resumed trace's approval span records the decision (read from the file: `spans query`
    // has tests of its own).
    const approvals = readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((span) => span.trace_id === printed.trace_id && span.name.startsWith('approval'));
    expect(approvals[0].attributes['agentcheck.approval.decision']).toBe('deny');

    // Refused before anything runs: the CLI's entry in-process (runMain); the built CLI refuses a damaged checkpoint below.
    const again = await runMain(['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl'], dir);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`no paused run ${runId} here`);
  });

  it("approve: the write lands in the run's workspace (default folder reports/runs) and the verdict passes", async () => {
    const dir = tempDir({ 'script.yaml': SCRIPT });
    // In-process (runMainFull): where the run's files go is the commands' logic; the built CLI
    // pauses (pausedRun) and resumes with approve (the printed command's test) above and below.
    const runId = await pause(dir, [], runMainFull);
    expect(existsSync(join(dir, 'reports/runs', `${runId}.checkpoint.json`))).toBe(true);
    const resumed = await runMainFull(['resume', runId, '--decision', 'approve', '--json'], dir);
    expect(resumed.exitCode, resumed.all).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn', approvals: [{ tool: 'write_file', decision: 'approve' }] });
    expect(readFileSync(join(dir, 'reports/runs', `${runId}.workspace`, 'CHANGELOG.md'), 'utf8')).toBe('- fixed add()\n');
    // The fixture folder itself is never written.
    expect(existsSync(join(WORKSPACE, 'CHANGELOG.md'))).toBe(false);
  });

  it('without --json, prints a resume command that works as written (with the --spans it was given)', async () => {
    const { dir, hint } = await copyPausedRun('my runs');
    expect(hint).toMatch(/^resume [0-9a-f]{32} --spans 'my runs\/spans\.jsonl' --decision approve\|deny$/);
    // The printed words, shell quoting undone, with one decision chosen.
    const words = hint
      .replace(' --decision approve|deny', ' --decision approve')
      .match(/'[^']*'|\S+/g)!
      .map((word) => word.replace(/^'|'$/g, ''));
    const resumed = await runCli(words, dir);
    expect(resumed.exitCode, resumed.all).toBe(0);
    expect(resumed.stdout).toContain('verdict: PASS');
  });

  it('without --json, prints the result of a run whose MCP server never started (no crash)', async () => {
    const dir = tempDir({
      'agent.yaml':
        'id: bad-mcp\nagent:\n  name: Bad MCP\n  llm: {provider: scripted, model: s}\n  mcps:\n    - {name: bad, command: [node, -e, "process.exit(4)"]}\n',
      'script.yaml': '- text: hi\n',
    });
    const result = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 'script.yaml'], dir);
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stderr).not.toContain('unexpected error');
    expect(result.stdout).toContain('verdict: FAILED - the invoke errored (MCP_START_FAILED: MCP server "bad"');
    expect(result.stdout).toContain('resolved: (none: the run ended before it started its agent)');
  });

  it('exits at the cap when a mock still holds its answer back (no timer outlives the run)', async () => {
    const dir = tempDir({
      'script.yaml': '- tool_calls: [{name: create_refund, args: {order_id: "1", reason: damaged}}]\n- text: done\n',
      // Ten minutes: a process that waited for the mock would hit this test's own timeout.
      'mocks.yaml': 'http:\n  - {method: POST, url: "https://shop.test/refunds", json: {ok: true}, delay_ms: 600000}\n',
    });
    const slow = await runCli(
      [
        'test-run',
        '--agent',
        join(ROOT, 'fixtures/agents/support-bot.yaml'),
        '--message',
        'refund 1',
        '--script',
        'script.yaml',
        '--mocks',
        'mocks.yaml',
        '--timeout',
        '500',
        '--json',
      ],
      dir,
    );
    expect(slow.exitCode, slow.all).toBe(1);
    expect(JSON.parse(slow.stdout).verdict_reason).toContain('TIMEOUT: the run timed out after 500 ms');
    expect(slow.stderr).not.toContain('[MSW]');
    expect(slow.stderr).not.toMatch(/^\s+at /m);
  }, 90_000);

  it("an http tool's timeout_ms firing while a mock holds its answer back is a tool error, with no stack trace on stderr", async () => {
    const dir = tempDir({
      'slow.yaml':
        'id: slow\nagent:\n  name: Slow\n  tools:\n    - {name: get, description: g, http: {method: GET, url: "https://x.test/slow", timeout_ms: 200}}\n',
      'script.yaml': '- tool_calls: [{name: get, args: {}}]\n- text: ok\n',
      // Ten minutes: only the tool's timeout_ms ends the request.
      'mocks.yaml': 'http: [{url: "https://x.test/slow", delay_ms: 600000, json: {ok: true}}]\n',
    });
    const result = await runCli(['test-run', '--agent', 'slow.yaml', '--message', 'go', '--script', 'script.yaml', '--mocks', 'mocks.yaml', '--json'], dir);
    const printed = JSON.parse(result.stdout);
    expect(printed.tools).toEqual([{ name: 'get', called: 1, returned: 0, errors: 1 }]);
    expect(printed.verdict_reason).toBe('tool get failed: timeout (get: GET https://x.test/slow timed out after 200 ms)');
    expect(result.stderr).not.toContain('[MSW]');
    expect(result.stderr).not.toContain('AbortError');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  }, 90_000);

  it('Ctrl-C (SIGINT) stops the run, kills its commands, prints the result so far and exits 1', async () => {
    const marks = tempDir({});
    const pidFile = join(marks, 'pid.txt');
    const dir = tempDir({
      // The command writes its pid, then would write a file a minute later.
      'script.yaml': `- tool_calls: [{name: run_command, args: {argv: [node, -e, "require('fs').writeFileSync(${JSON.stringify(pidFile).replaceAll('"', "'")}, String(process.pid)); setTimeout(() => require('fs').writeFileSync('late.txt', 'x'), 60000)"]}}]\n- text: done\n`,
      'approvals.yaml': 'default: approve\n',
    });
    const child = execa('node', [CLI, 'test-run', '--agent', AGENT, '--message', 'go', '--script', 'script.yaml', '--approvals', 'approvals.yaml', '--json'], {
      cwd: dir,
      reject: false,
      env: { CI: 'true' },
    });
    const pid = await waitForPidFile(pidFile);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ stop_reason: 'error', verdict: 'failed' });
    // The command was killed with the run, not left behind (signalled as the run ended; on a busy
    // machine it may take a moment to go).
    await waitUntilGone(pid);
  }, 90_000);

  it('answers gates from --approvals and caps the run at --timeout', async () => {
    const dir = tempDir({ 'script.yaml': SCRIPT, 'approvals.yaml': 'tools: {write_file: approve}\n', 'slow.yaml': '- {delay_ms: 3600000, text: late}\n' });
    const approved = await runCli([...base, '--approvals', 'approvals.yaml', '--json'], dir);
    expect(approved.exitCode, approved.all).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ verdict: 'pass', approvals: [{ tool: 'write_file', decision: 'approve' }] });

    // In-process (runMainFull): the message and spans are the run's logic; the built CLI exits at
    // its cap with a mock holding its answer back above.
    const slow = await runMainFull(
      ['test-run', '--agent', AGENT, '--message', 'hi', '--script', 'slow.yaml', '--timeout', '300', '--spans', 'slow.jsonl', '--json'],
      dir,
    );
    expect(slow.exitCode, slow.all).toBe(1);
    const printed = JSON.parse(slow.stdout);
    expect(printed).toMatchObject({ stop_reason: 'error', verdict: 'failed' });
    // The CLI's cap is its --timeout flag: the message names the flag, not the request field.
    expect(printed.verdict_reason).toContain('timed out after 300 ms (--timeout)');
    // The root span names the same cause as the verdict; the interrupted model call keeps its abort.
    const spans = readFileSync(join(dir, 'slow.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const root = spans.find((span) => span.parent_id === null);
    expect(root).toMatchObject({ status: 'error', attributes: { 'error.type': 'TIMEOUT' } });
    expect(root.status_message).toContain('timed out after 300 ms');
    expect(spans.find((span) => span.name.startsWith('chat')).attributes['error.type']).toBe('MODEL_ABORTED');
  });

  it('moves the workspace to the new run id on a second pause, and lists every decision of the whole run', async () => {
    const twoWrites = `- tool_calls: [{name: write_file, args: {path: A.md, content: "a\\n"}}]
- tool_calls: [{name: write_file, args: {path: B.md, content: "b\\n"}}]
- text: Done.
`;
    const dir = tempDir({ 'script.yaml': twoWrites });
    // In-process (runMainFull): moving the workspace and listing decisions are the commands' logic;
    // the built CLI pauses, and resumes to exit 0 and 1, in the tests above.
    const first = await pause(dir, ['--spans', 'out/spans.jsonl'], runMainFull);
    const second = await runMainFull(['resume', first, '--decision', 'approve', '--spans', 'out/spans.jsonl', '--json'], dir);
    // The approved write returned: the terminal tool's verdict passes even though the run paused again.
    expect(second.exitCode, second.all).toBe(0);
    const paused = JSON.parse(second.stdout);
    expect(paused).toMatchObject({
      stop_reason: 'paused',
      approvals: [
        { tool: 'write_file', decision: 'approve' },
        { tool: 'write_file', decision: 'pending' },
      ],
    });
    const again = paused.run_id as string;
    expect(again).not.toBe(first);
    // <folder>/<run_id>.workspace/ for the id resume takes now; the answered run's files are gone.
    expect(existsSync(join(dir, 'out', `${first}.workspace`))).toBe(false);
    expect(existsSync(join(dir, 'out', `${first}.checkpoint.json`))).toBe(false);
    expect(readFileSync(join(dir, 'out', `${again}.workspace`, 'A.md'), 'utf8')).toBe('a\n');
    const checkpoint = JSON.parse(readFileSync(join(dir, 'out', `${again}.checkpoint.json`), 'utf8'));
    expect(checkpoint.workspace_dir).toBe(join(dir, 'out', `${again}.workspace`));

    const last = await runMainFull(['resume', again, '--decision', 'deny', '--spans', 'out/spans.jsonl', '--json'], dir);
    const done = JSON.parse(last.stdout);
    expect(done).toMatchObject({ stop_reason: 'end_turn', output: 'Done.' });
    expect(done.approvals).toEqual([
      { tool: 'write_file', decision: 'approve' },
      { tool: 'write_file', decision: 'deny' },
    ]);
    expect(existsSync(join(dir, 'out', `${again}.workspace`, 'B.md'))).toBe(false);
    // Scored as the whole run, as a scenario's resume is: the first write returned, so it passes.
    expect(done).toMatchObject({ verdict: 'pass', tools: [{ name: 'write_file', called: 2, returned: 1, errors: 0 }] });
    expect(last.exitCode).toBe(0);
  });

  it('refuses a damaged checkpoint file as invalid input, naming each bad field', async () => {
    const { dir, runId } = await copyPausedRun();
    const file = join(dir, 'out', `${runId}.checkpoint.json`);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...saved, script: 'nope', approvals: { default: 'maybe' }, spans: 'xy', mock_served: { '5': 1 } }));
    const result = await runCli(['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain(`${file} at script: expected array, got string "nope"`);
    expect(result.stderr).toContain(`${file} at approvals.default: expected one of "approve" | "deny", got string "maybe"`);
    expect(result.stderr).toContain(`${file} at spans: expected the run's span records (a list)`);
    // A count for a mock the run does not have is a damaged file, not a sequence position.
    expect(result.stderr).toContain(
      `${file} at mock_served: expected {<mock index>: <requests answered>} with whole numbers >= 0 (mock indexes: none: the run has no mocks)`,
    );
    expect(result.stderr).not.toMatch(/TypeError/);
    // A terminal tool the saved build lacks is refused as a request's is, not run to a failed
    // verdict; a damaged flow state is refused naming the field, and the file is kept for a retry.
    // Each is checked on its own (neither is a field the other's check needs), so one resume says both.
    const spans = [{ ...saved.spans[0], status: 'weird' }, ...saved.spans.slice(1)];
    const checkpoint = { ...saved.checkpoint, seq: 0, traceId: 'abc' };
    writeFileSync(file, JSON.stringify({ ...saved, expectations: { terminal_tool: 'nope' }, checkpoint, spans }));
    // The damaged files below are refused through the CLI's entry in-process (runMain), as the built CLI refused the one above.
    const state = await runMain(['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl'], dir);
    expect(state.exitCode, state.all).toBe(2);
    expect(state.stderr).toContain(`${file} at expectations.terminal_tool: expectations.terminal_tool names no tool of the agent: "nope"`);
    expect(state.stderr).toContain(`${file} at checkpoint.seq: expected a whole number >= 1, got number 0`);
    expect(state.stderr).toContain(`${file} at checkpoint.traceId: expected the run's trace id (32 lowercase hex digits), got string "abc"`);
    expect(state.stderr).toContain(`${file} at spans[0].status: expected one of unset, ok, error`);
    expect(existsSync(file)).toBe(true);
    // A field nested thousands deep is refused before anything walks it, never a stack overflow.
    writeFileSync(file, JSON.stringify(saved).replace(/"script":\[/, `"script":[${'['.repeat(10_000)}${']'.repeat(10_000)},`));
    const deep = await runMain(['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl'], dir);
    expect(deep.exitCode, deep.all).toBe(2);
    expect(deep.stderr).toContain(`${file} at script: is nested more than 1000 levels deep: not a checkpoint agentcheck wrote`);
  });

  it("refuses bad --mocks and --approvals files and a missing --workspace, holding --mocks to the rules of a scenario's mocks, located in the file", async () => {
    // Each mock breaks one rule; a format problem in one mock does not hide a rule broken by another
    // (http[0] and http[4]), and test-run checks each of its inputs on its own: one run says every problem.
    const rules = [
      'http:',
      '  - {url: "https://x.test", json: {ok: true}, body: "ok"}',
      '  - url: "https://x.test"',
      '    status: 200',
      '    responses: [{json: {ok: true}}]',
      '  - url: "https://x.test"',
      '    match: {json: {a: {$regexx: 1}}}',
      '    json: {ok: true}',
      '  - url: "https://x.test"',
      '    headers: {"Bad H": x}',
      '    json: {ok: true}',
      '  - {url: "https://x.test/y", responses: []}',
      '  - {url: "https://x.test", status: 99}',
      '',
    ].join('\n');
    const dir = tempDir({ 'script.yaml': SCRIPT, 'rules.yaml': rules, 'approvals.yaml': 'tools: {write_fil: approve}\n' });
    const missingWorkspace = base.map((arg) => (arg === WORKSPACE ? 'missing-folder' : arg));
    // Refused at load: the CLI's entry in-process (runMain); the built CLI refuses a bad --script in commands.test.ts.
    const result = await runMain([...missingWorkspace, '--mocks', 'rules.yaml', '--approvals', 'approvals.yaml'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stdout).toBe('');
    for (const message of [
      /rules\.yaml:2:\d+ at http\[0\]\.body: an answer has "json" or "body" \(text\), not both/,
      /rules\.yaml:4:\d+ at http\[1\]\.status: a mock answers with "responses" \(a sequence\) or with its own status, json, body, headers, delay_ms, not both/,
      /rules\.yaml:7:\d+ at http\[2\]\.match\.json\.a\.\$regexx: unknown matcher "\$regexx"/,
      /rules\.yaml:10:\d+ at http\[3\]\.headers\["Bad H"\]: header name "Bad H" cannot be sent: it holds " "; expected an HTTP token/,
      /rules\.yaml:2:\d+ at http\[0\]\.body: an answer has "json" or "body".*\n(.*\n)*.*rules\.yaml:12:\d+ at http\[4\]\.responses: /,
      /rules\.yaml:13:\d+ at http\[5\]\.status/,
      /approvals\.yaml:1:\d+ at tools\.write_fil/,
    ]) {
      expect(result.stderr).toMatch(message);
    }
    expect(result.stderr).toContain('workspace folder not found');
  });

  it('fails the verdict naming a request no mock matched', async () => {
    const dir = tempDir({ 'mocks.yaml': 'http:\n  - {method: POST, url: "https://shop.test/other", json: {ok: true}}\n' });
    // In-process (runMainFull): which request a mock matches is the run's logic; the built CLI
    // exits 1 with a failed verdict in the test of a server that never started, above.
    const result = await runMainFull(
      [
        'test-run',
        '--agent',
        join(ROOT, 'fixtures/agents/support-bot.yaml'),
        '--message',
        'refund 1234',
        '--script',
        join(ROOT, 'fixtures/test-run/refund-script.yaml'),
        '--mocks',
        'mocks.yaml',
        '--terminal-tool',
        'create_refund',
        '--json',
      ],
      dir,
    );
    expect(result.exitCode, result.all).toBe(1);
    const printed = JSON.parse(result.stdout);
    expect(printed.verdict).toBe('failed');
    expect(printed.verdict_reason).toMatch(/^no mock matched POST https:\/\/shop\.test\/refunds \(mocks\.http\); tool create_refund failed: network/);
  });
});
