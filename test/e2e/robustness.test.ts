import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { linesAbout, once, shared, sharedDir } from '../helpers/shared-fixture.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, CLI, passingScenario, runCli } from './cli.js';

/**
 * Marks `marks` (a file named started-<pid>), then waits until a file `go` appears there. A shell
 * loop, not a node script: the same wait for a fraction of the CPU of starting Node.
 */
const WAIT_FOR_GO = ': > "$1/started-$$"; while [ ! -e "$1/go" ]; do sleep 0.05; done';

/**
 * `count` scenarios whose one tool call (the terminal tool) runs a command that marks `marks`
 * and then waits for `marks/go`: a run surely in flight once a mark exists, until the test lets it go.
 */
function slowSuite(count: number, make: (files?: Record<string, string>) => string = tempDir): { dir: string; marks: string } {
  const marks = make({});
  const files: Record<string, string> = {
    'agent.yaml': `id: slow
agent:
  name: Slow
  tools:
    - {name: wait, description: Waits., parameters: {type: object}, command: {argv: [sh, -c, ${JSON.stringify(WAIT_FOR_GO)}, sh, ${JSON.stringify(marks)}]}}
`,
  };
  for (let i = 0; i < count; i++) {
    files[`s${i}.scenario.yaml`] =
      `name: slow ${i}\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{tool_calls: [{name: wait, args: {}}]}, {text: done}]}\nexpect: {terminal_tool: wait}\n`;
  }
  return { dir: make(files), marks };
}

/** Resolves once `count` command tools are really running, however slow the machine is. */
async function toolStarted(marks: string, count = 1): Promise<void> {
  await expect.poll(() => readdirSync(marks).length, { timeout: 120_000, interval: 50 }).toBeGreaterThanOrEqual(count);
}

/** Opens the other end of each pipe, so a command that did open one after all is released and no process outlives the tests. */
function releasePipes(pipes: string[]): void {
  for (const pipe of pipes) {
    try {
      closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader (or no pipe): nothing is blocked.
    }
  }
}

/**
 * One `run` of 6 slow scenarios at concurrency 2, interrupted (SIGINT) once the tools of both runs
 * in flight have started (so each of them is cut mid-tool, none half-started): its exit 1, report
 * and output, read by the two tests of an interrupted run.
 */
const interruptedRun = shared(async (make) => {
  const { dir, marks } = slowSuite(6, make);
  const child = execa('node', [CLI, 'run', '.', '--out', 'out', '--concurrency', '2', '--reporter', 'table,json,junit'], {
    cwd: dir,
    reject: false,
    env: { CI: 'true' },
  });
  await toolStarted(marks, 2);
  child.kill('SIGINT');
  const result = await child;
  expect(result.exitCode, result.stderr).toBe(1);
  const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
  return { dir, report, result };
});

/** A scenario whose script call's argument is nested 1,000 levels deep. */
const DEEP_SCENARIO = JSON.stringify({
  name: 'deep',
  agent: 'ok/agent.yaml',
  inputs: { messages: [{ role: 'user', content: 'go' }] },
  model: { script: [{ tool_calls: [{ name: 'lookup', args: { id: '__DEEP__' } }] }] },
}).replace('"__DEEP__"', `${'['.repeat(1000)}1${']'.repeat(1000)}`);

describe('robustness through the CLI', () => {
  it('writes the report when interrupted while command tools run', async () => {
    const { dir, report } = await interruptedRun();
    expect(report.interrupted).toBe(true);
    expect(report.scenarios).toHaveLength(6);
    expect(existsSync(join(dir, 'out/junit.xml'))).toBe(true);
  });

  it("keeps an interrupted in-flight run's transcript, usage, turns, time and trace id in its not_run row", async () => {
    const { dir, report, result } = await interruptedRun();
    // The two runs in flight (s0 and s1, at concurrency 2) are cut; the other four never started.
    const cuts = report.scenarios.filter((row) => row.test_run !== null);
    const unreachedRows = report.scenarios.filter((row) => row.test_run === null);
    expect(cuts.map((row) => row.name).sort()).toEqual(['slow 0', 'slow 1']);
    expect(unreachedRows).toHaveLength(4);
    for (const cut of cuts) {
      expect(cut).toMatchObject({
        status: 'not_run',
        reason: 'not run to the end: the suite was interrupted (RUN_ABORTED)',
        turns: 1,
        checks: [],
        error: null,
        test_run: { verdict: 'failed', stop_reason: 'error' },
        usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
      });
      expect(cut.duration_ms).toBeGreaterThan(0);
      expect(cut.transcript?.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
      expect(cut.transcript?.[1]).toMatchObject({ tool_calls: [{ tool_name: 'wait' }] });
    }
    // The spans in spans.jsonl are the cut rows': their trace ids link them.
    const traces = readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { trace_id: string }).trace_id);
    expect(traces.length).toBeGreaterThan(0);
    expect(new Set(traces)).toEqual(new Set(cuts.map((cut) => cut.test_run?.trace_id)));
    // The runs never started keep nothing; no row counts.
    for (const unreached of unreachedRows) {
      expect(unreached).toMatchObject({ status: 'not_run', reason: 'not run: the suite was interrupted', test_run: null, turns: 0, duration_ms: 0 });
      expect(unreached.transcript).toBeUndefined();
    }
    expect(report.summary).toMatchObject({ total: 6, passed: 0, failed: 0, errored: 0, not_run: 6 });
    expect(result.stdout).toMatch(/NOT RUN .*s0\.scenario\.yaml#slow 0 .* failed .*│ 1 /);
  });

  it('an output folder replaced by a file mid-run: each output that failed is named, the table and summary still print, exit 1', async () => {
    const { dir, marks } = slowSuite(1);
    const out = join(dir, 'out');
    // The default reporters (table, json): spans.jsonl and the temporary rows file are open in out/.
    const child = execa('node', [CLI, 'run', '.', '--out', 'out'], { cwd: dir, reject: false, env: { CI: 'true' } });
    await toolStarted(marks);
    rmSync(out, { recursive: true });
    writeFileSync(out, 'a cleanup job put a file here\n');
    writeFileSync(join(marks, 'go'), '');
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).not.toMatch(/unexpected error|\n {4}at /);
    expect(result.stderr).toContain(`could not write ${join(out, 'spans.jsonl')}: ENOTDIR`);
    expect(result.stderr).toContain(`could not write ${join(out, 'report.json')}: `);
    expect(result.stderr).toMatch(/report\.json: .*out is a file, not a folder/);
    // The run itself passed, and the terminal says so.
    expect(result.stdout).toMatch(/PASS .*s0\.scenario\.yaml#slow 0/);
    expect(result.stdout).toContain('1 scenario: 1 passed');
    expect(result.stdout).toMatch(/Reports: none written$/);
    expect(readFileSync(out, 'utf8')).toBe('a cleanup job put a file here\n');
  });

  it('exits 2 with a clear message for folders where files belong and for a bad output folder', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a'), 'sub/x.txt': 'x' });
    // Refused before anything runs: the CLI's entry in-process (runMain); the built CLI refuses run's
    // and validate's inputs below (a named pipe).
    const folderAgent = await runMain(['test-run', '--agent', 'sub', '--message', 'hi', '--json'], dir);
    expect(folderAgent.exitCode).toBe(2);
    expect(folderAgent.stderr).toMatch(/sub: is a folder; expected a YAML or JSON file/);
    const folderConfig = await runMain(['run', '.', '--config', 'sub'], dir);
    expect(folderConfig.exitCode).toBe(2);
    expect(folderConfig.stderr).not.toMatch(/unexpected error/);
    const badOut = await runMain(['run', '.', '--out', '/dev/null/reports'], dir);
    expect(badOut.exitCode).toBe(2);
    expect(badOut.stderr).toMatch(/cannot write reports there/);
  });

  it('refuses a named pipe among the scenario files, found or named, in run and validate, without opening it', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
    const pipe = join(dir, 'p.scenario.yaml');
    execFileSync('mkfifo', [pipe]);
    onTestFinished(() => releasePipes([pipe]));
    // In-process (runMain: refused unopened, nothing runs; a pipe opened would hang the test as
    // it would the CLI); the built CLI refuses run's and validate's pipes in the next tests.
    for (const args of [
      ['run', '.', '--out', 'out'],
      ['run', 'p.scenario.yaml'],
      ['validate', '.'],
      ['validate', 'p.scenario.yaml'],
    ]) {
      const result = await runMain(args, dir);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`${pipe}: is a named pipe (FIFO), not a regular file; expected a scenario file`);
    }
  });

  // Named pipes where a build, a custom check module, a config and a report belong, and the
  // scenarios naming them, for the pipe test below; its validate of s.scenario.yaml also takes
  // deep.scenario.json, for the nesting test at the end (each reads its own file's lines).
  const PIPES = sharedDir({
    'ok/agent.yaml': AGENT_YAML,
    'p.scenario.yaml': passingScenario('p').replace('agent: agent.yaml', 'agent: ok/agent.yaml'),
    's.scenario.yaml': passingScenario('s').replace('agent: agent.yaml', 'agent: pipe.yaml'),
    'c.scenario.yaml': passingScenario('c').replace('agent: agent.yaml', 'agent: ok/agent.yaml') + 'expect: {checks: [{custom: {module: ./pipe.mjs}}]}\n',
    'deep.scenario.json': DEEP_SCENARIO,
  });
  const pipes = ['pipe.yaml', 'pipe.mjs', 'config-pipe.yaml', 'report-pipe.json'].map((name) => join(PIPES, name));
  for (const pipe of pipes) execFileSync('mkfifo', [pipe]);
  afterAll(() => releasePipes(pipes));
  const validatePipeAndDeep = once(() => runCli(['validate', 's.scenario.yaml', 'deep.scenario.json'], PIPES));

  it('never waits on a named pipe given as a build, a config, a report or a custom check module; a pipe with a writer is read', async () => {
    const dir = PIPES;
    // A YAML file read from a pipe nobody writes is empty; code and reports are refused unopened.
    const validate = await validatePipeAndDeep();
    expect(validate.exitCode, 'validate s.scenario.yaml').toBe(2);
    expect(linesAbout(validate.stderr, 's.scenario.yaml'), 'validate s.scenario.yaml').toContain('pipe.yaml');
    // One run of the scenarios naming a pipe as their build and as their custom check module: each is refused at load.
    const run = await runCli(['run', 's.scenario.yaml', 'c.scenario.yaml', '--out', 'o1'], dir);
    expect(run.exitCode, 'run s.scenario.yaml c.scenario.yaml').toBe(2);
    expect(linesAbout(run.stderr, 's.scenario.yaml'), 'run s.scenario.yaml').toContain('pipe.yaml');
    expect(linesAbout(run.stderr, 'c.scenario.yaml'), 'run c.scenario.yaml').toContain(
      'custom check module ./pipe.mjs is a named pipe (FIFO), not a regular file',
    );
    // Reports are refused unopened: run's in-process (runMain), merge's on the built CLI.
    const cases: Array<[string[], string, 'cli' | 'main']> = [
      [
        ['run', 's.scenario.yaml', '--only-failed', 'report-pipe.json'],
        'report-pipe.json: is a named pipe (FIFO), not a regular file; expected a report.json',
        'main',
      ],
      [['merge', 'report-pipe.json', '--out', 'm'], 'report-pipe.json: is a named pipe (FIFO), not a regular file; expected a report.json', 'cli'],
    ];
    for (const [args, expected, how] of cases) {
      const result = await (how === 'cli' ? runCli(args, dir) : runMain(args, dir));
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(expected);
    }
    // An empty config is no config: the run goes on.
    const emptyConfig = await runCli(['run', 'p.scenario.yaml', '--config', 'config-pipe.yaml', '--out', 'o3'], dir);
    expect(emptyConfig.exitCode, emptyConfig.all).toBe(0);
    // A pipe with its writer there (`--script <(...)`, /dev/stdin in a pipeline) is read as it comes.
    const piped = await execa(
      'sh',
      ['-c', `printf -- '- text: piped\\n' | "${process.execPath}" "${CLI}" test-run --agent ok/agent.yaml --message hi --script /dev/stdin --json`],
      {
        cwd: dir,
        reject: false,
      },
    );
    expect(JSON.parse(piped.stdout).output, piped.stderr).toBe('piped');
  });

  it('refuses a timeout Node cannot hold instead of timing out at once', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
    // A flag value refused as it is parsed: the CLI's entry in-process (runMain).
    const result = await runMain(['run', '.', '--timeout', '1e99'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/expected a whole number of ms from 1 to 2147483647/);
  });

  it('refuses a scenario nested absurdly deep with a located error, not an out-of-memory crash', async () => {
    // validate of deep.scenario.json, beside s.scenario.yaml in the pipes' folder.
    const result = await validatePipeAndDeep();
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/deep\.scenario\.json.*nested more than 100 levels deep/);
  });
});
