import { existsSync, linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shared } from '../helpers/shared-fixture.js';
import { type MainResult, runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, runCli } from './cli.js';
import { AGENT, base, SCRIPT } from './test-run-resume-fixture.js';

describe('test-run --spans to a place that cannot be written (built CLI)', () => {
  it('is invalid input before the run, named, without a stack trace', async () => {
    const result = await runCli(
      [
        'test-run',
        '--agent',
        'fixtures/agents/support-bot.yaml',
        '--message',
        'hi',
        '--script',
        'fixtures/test-run/refund-script.yaml',
        '--spans',
        '/dev/null/x/s.jsonl',
        '--json',
      ],
      ROOT,
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('/dev/null/x/s.jsonl: cannot write the spans there');
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(result.stdout).toBe('');
  });
});

describe('test-run --spans naming one of the run inputs (built CLI)', () => {
  /** A build, a delta, a script and a workspace: what --spans may not name. */
  const INPUTS = {
    'bot.yaml': readFileSync(join(ROOT, 'fixtures/agents/support-bot.yaml'), 'utf8'),
    'delta.yaml': 'set: {agent: {max_turns: 3}}\n',
    'script.yaml': '- text: hi\n',
    'ws/notes.txt': 'keep me\n',
  };

  /**
   * One test-run given all of INPUTS (its script.json answers with escapes and a bidi override)
   * and a --spans file that is none of them: read by the test that such a file is written, and by
   * the test of what test-run prints.
   */
  const allowedSpans = shared(async (dir) => {
    const root = dir({ ...INPUTS, 'script.json': JSON.stringify([{ text: 'Done \u001b[31mRED\u001b[0m \u202eevil\u202c end\u0007' }]) });
    const run = ['test-run', '--agent', 'bot.yaml', '--message', 'hi', '--script', 'script.json', '--delta', 'delta.yaml', '--workspace', 'ws'];
    return { root, result: await runCli([...run, '--spans', 'out/spans.jsonl'], root) };
  });

  it('refuses the build, the delta and a file inside --workspace, before the run and leaving each file as it was', async () => {
    const dir = tempDir(INPUTS);
    const base = ['test-run', '--agent', 'bot.yaml', '--message', 'hi', '--script', 'script.yaml', '--delta', 'delta.yaml', '--workspace', 'ws'];
    const before = ['bot.yaml', 'delta.yaml', 'script.yaml', 'ws/notes.txt'].map((file) => readFileSync(join(dir, file), 'utf8'));
    // Through the CLI's entry in-process (runMain): the built CLI refuses a --spans it cannot write above.
    for (const [spans, flag] of [
      ['bot.yaml', '--agent'],
      ['./delta.yaml', '--delta'],
      ['script.yaml', '--script'],
    ]) {
      const result = await runMain([...base, '--spans', spans], dir);
      expect(result.exitCode, result.all).toBe(2);
      expect(result.stderr).toContain(`--spans names the ${flag} file; the spans would overwrite it`);
    }
    // The build under another name: a hard link shares its inode, a symbolic link its real path.
    linkSync(join(dir, 'bot.yaml'), join(dir, 'hard.yaml'));
    symlinkSync('bot.yaml', join(dir, 'soft.yaml'));
    for (const spans of ['hard.yaml', 'soft.yaml']) {
      const result = await runMain([...base, '--spans', spans], dir);
      expect(result.exitCode, result.all).toBe(2);
      expect(result.stderr).toContain('--spans names the --agent file; the spans would overwrite it');
    }
    const inside = await runMain([...base, '--spans', 'ws/notes.txt'], dir);
    expect(inside.exitCode, inside.all).toBe(2);
    expect(inside.stderr).toContain('--spans is inside the --workspace folder, which a test-run never changes');
    expect(['bot.yaml', 'delta.yaml', 'script.yaml', 'ws/notes.txt'].map((file) => readFileSync(join(dir, file), 'utf8'))).toEqual(before);
    // Another file is written as before (a run given the same inputs).
    const { root, result: ok } = await allowedSpans();
    expect(ok.exitCode, ok.all).toBe(1);
    expect(readFileSync(join(root, 'out/spans.jsonl'), 'utf8')).toContain('"trace_id"');
  });

  it("refuses an external agent's command file and a file in a skill folder the delta names, leaving each as it was", async () => {
    const dir = tempDir({
      'ext/agent.mjs': 'console.log("hi")\n',
      'ext/ext.yaml':
        'id: ext\nexternal:\n  command: [node, ./agent.mjs]\n  tools:\n    - {name: get_weather, parameters: {type: object, properties: {city: {type: string}}}}\n',
      'x.yaml': '- text: x\n',
      'skl/getting-started/SKILL.md': readFileSync(join(ROOT, 'fixtures/skills/getting-started/SKILL.md'), 'utf8'),
      'skd.yaml': 'set:\n  agent:\n    skills:\n      - {ref: skl/getting-started}\n',
    });
    // Each through the CLI's entry in-process (runMain), as the refusals of the test above.
    const external = await runMain(['test-run', '--agent', 'ext/ext.yaml', '--message', 'hi', '--script', 'x.yaml', '--spans', 'ext/agent.mjs', '--json'], dir);
    expect(external.exitCode, external.all).toBe(2);
    expect(external.stdout).toBe('');
    expect(external.stderr).toContain(
      'ext/agent.mjs: --spans names the external.command[1] file, which the run reads; the spans would overwrite it: give another file',
    );
    expect(readFileSync(join(dir, 'ext/agent.mjs'), 'utf8')).toBe('console.log("hi")\n');
    const bot = join(ROOT, 'fixtures/agents/support-bot.yaml');
    const skill = await runMain(
      ['test-run', '--agent', bot, '--message', 'hi', '--script', 'x.yaml', '--delta', 'skd.yaml', '--spans', 'skl/getting-started/SKILL.md', '--json'],
      dir,
    );
    expect(skill.exitCode, skill.all).toBe(2);
    expect(skill.stderr).toContain('--spans is inside the skill folder of agent.skills[0], which the run reads: give a file outside it');
    expect(readFileSync(join(dir, 'skl/getting-started/SKILL.md'), 'utf8')).toBe(readFileSync(join(ROOT, 'fixtures/skills/getting-started/SKILL.md'), 'utf8'));
    // A command tool's script named by an absolute path is read by the run too.
    writeFileSync(join(dir, 'tool.mjs'), 'console.log("tool")\n');
    writeFileSync(
      join(dir, 'cmd.yaml'),
      `id: cmd\nagent:\n  name: Cmd\n  tools:\n    - {name: t, description: t, command: {argv: [node, ${JSON.stringify(join(dir, 'tool.mjs'))}]}}\n`,
    );
    const tool = await runMain(['test-run', '--agent', 'cmd.yaml', '--message', 'hi', '--script', 'x.yaml', '--spans', 'tool.mjs', '--json'], dir);
    expect(tool.exitCode, tool.all).toBe(2);
    expect(tool.stderr).toContain('--spans names the agent.tools[0].command.argv[1] file, which the run reads');
    expect(readFileSync(join(dir, 'tool.mjs'), 'utf8')).toBe('console.log("tool")\n');
  });

  it('prints the model output and reasons without ANSI sequences, control characters or bidi overrides', async () => {
    const { result } = await allowedSpans();
    expect(result.stdout).toContain('output: Done RED <U+202E>evil<U+202C> end');
    for (const raw of ['\u001b', '\u0007', '\u202e']) expect(result.stdout).not.toContain(raw);
  });
});

const resume = (dir: string, runId: string, spans: string) => runCli(['resume', runId, '--decision', 'approve', '--spans', spans, '--json'], dir);

/** Exit 2 with nothing on stdout, no stack trace, and the checkpoint kept for a resume with the right --spans. */
function expectRefusedResume(result: Omit<MainResult, 'exitCode'> & { exitCode?: number }, checkpoint: string): void {
  expect(result.exitCode, result.all).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
  expect(existsSync(checkpoint)).toBe(true);
}

describe('agentcheck resume --spans naming a file it reads (built CLI)', () => {
  /**
   * One run paused at its gated write, its checkpoint beside the build file it ran (agent.yaml,
   * --spans spans.jsonl), resumed in its folder with --spans naming each file it reads, one after
   * another (each refused, so the next finds the run still paused), then with the right --spans:
   * each test reads the refusal it is about and what the files hold.
   */
  const refusedThenResumed = shared(async (dir) => {
    const root = dir({ 'script.yaml': SCRIPT, 'agent.yaml': readFileSync(AGENT, 'utf8') });
    // Paused in-process (runMainFull): these tests are about the resumes; the built CLI runs
    // test-run to exit 1 in the tests above.
    const paused = await runMainFull([...base.map((arg) => (arg === AGENT ? 'agent.yaml' : arg)), '--spans', 'spans.jsonl', '--json'], root);
    expect(paused.exitCode, paused.all).toBe(1);
    const printed = JSON.parse(paused.stdout);
    expect(printed).toMatchObject({ stop_reason: 'paused', approvals: [{ tool: 'write_file', decision: 'pending' }] });
    expect(printed.run_id).toMatch(/^[0-9a-f]{32}$/);
    const runId = printed.run_id as string;
    const checkpoint = join(root, `${runId}.checkpoint.json`);
    const read = (file: string) => readFileSync(join(root, file), 'utf8');
    const before = { checkpoint: read(`${runId}.checkpoint.json`), script: read('script.yaml'), build: read('agent.yaml') };
    const refused: Record<string, Parameters<typeof expectRefusedResume>[0]> = {};
    // The first refusal on the built CLI, the others through the CLI's entry in-process (runMain).
    for (const spans of [`${runId}.checkpoint.json`, 'script.yaml', 'agent.yaml']) {
      refused[spans] =
        spans === 'script.yaml' || spans === 'agent.yaml'
          ? await runMain(['resume', runId, '--decision', 'approve', '--spans', spans, '--json'], root)
          : await resume(root, runId, spans);
      expectRefusedResume(refused[spans], checkpoint);
    }
    const after = { checkpoint: read(`${runId}.checkpoint.json`), script: read('script.yaml'), build: read('agent.yaml') };
    const spansBefore = read('spans.jsonl');
    const resumed = await resume(root, runId, 'spans.jsonl');
    return { root, runId, before, after, refused, spansBefore, resumed, spansAfter: read('spans.jsonl') };
  });

  it('refuses the checkpoint file itself, leaving it as it was, and then resumes with the right --spans', async () => {
    const { runId, before, after, refused, resumed } = await refusedThenResumed();
    expect(refused[`${runId}.checkpoint.json`]!.stderr).toContain(
      `--spans names the paused run's checkpoint file; the spans would be written into it: give the --spans file test-run was given (resume reads the checkpoint from that file's folder)`,
    );
    expect(after.checkpoint).toBe(before.checkpoint);
    expect(resumed.exitCode, resumed.all).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ verdict: 'pass' });
  });

  it("refuses a file that holds no spans (test-run's script, beside the checkpoint), then appends to the spans file", async () => {
    const { before, after, refused, resumed, spansBefore, spansAfter } = await refusedThenResumed();
    expect(refused['script.yaml']!.stderr).toContain(
      "script.yaml: --spans names a file that holds no spans (its first line is not a span record), and resume appends the resumed run's spans to it: give the --spans file test-run wrote, or a new file",
    );
    expect(after.script).toBe(before.script);
    expect(resumed.exitCode, resumed.all).toBe(0);
    expect(spansAfter.startsWith(spansBefore)).toBe(true);
    expect(spansAfter.length).toBeGreaterThan(spansBefore.length);
  });

  it('refuses the build file test-run ran, when the checkpoint is beside it: resume would append its spans to the build', async () => {
    const { before, after, refused } = await refusedThenResumed();
    expect(refused['agent.yaml']!.stderr).toContain(
      `agent.yaml: --spans names the paused run's agent build file (test-run's --agent); the spans would be written into it`,
    );
    expect(after.build).toBe(before.build);
  });
});
