import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { linesAbout, shared } from '../helpers/shared-fixture.js';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

const LIMIT = `export const paramsSchema = {type: 'object', required: ['max'], properties: {max: {type: 'integer'}}};
export default (evidence, params) => evidence.calls.length <= params.max
  ? {status: 'pass', reason: 'ok'}
  : {status: 'fail', reason: 'expected at most ' + params.max + ' calls; saw ' + evidence.calls.length};
`;

/** A CommonJS module: its check and paramsSchema are read from module.exports. */
const CJS = [
  'module.exports = {',
  "  paramsSchema: {type: 'object', required: ['max'], properties: {max: {type: 'integer'}}},",
  "  check: (evidence, params) => evidence.calls.length <= params.max ? {status: 'pass', reason: 'ok'} : {status: 'fail', reason: 'saw ' + evidence.calls.length},",
  '};',
].join('\n');

describe('custom checks and datasets (end to end)', () => {
  // A suite whose custom checks decide its rows: limit.mjs fails its row, the CommonJS c.cjs passes its own.
  const decided = shared(async (dir) => {
    const cwd = dir({
      'agent.yaml': AGENT_YAML,
      'checks/limit.mjs': LIMIT,
      'checks/c.cjs': CJS,
      'limit.scenario.yaml': passingScenario('limit', '    - custom: {module: checks/limit.mjs, params: {max: 1}}'),
      'cjs.scenario.yaml': passingScenario('cjs', '    - custom: {module: ./checks/c.cjs, params: {max: 2}}'),
    });
    // The run in-process (runMainFull): the built CLI runs custom checks in the tests below.
    const validated = await runCli(['validate', '.'], cwd);
    const ran = await runMainFull(['run', '.', '--out', 'out', '--reporter', 'table,json'], cwd);
    const report = JSON.parse(readFileSync(join(cwd, 'out', 'report.json'), 'utf8')) as Report;
    return { validated, ran, report };
  });

  // Params a paramsSchema refuses, of each kind of module and dataset, in one suite: every file's
  // problem is told in one pass, with exit 2 before any run (good.scenario.yaml never runs).
  const refusedParams = shared(async (dir) => {
    const check = '    - custom: {module: checks/limit.mjs, params: {max: "{{ vars.max }}"}}\n';
    const cwd = dir({
      'agent.yaml': AGENT_YAML,
      'checks/limit.mjs': LIMIT,
      'checks/c.cjs': CJS,
      'maxes.csv': 'n,max\na,5\n',
      'good.scenario.yaml': passingScenario('good'),
      'bad.scenario.yaml': passingScenario('bad', '    - custom: {module: checks/limit.mjs, params: {max: many}}'),
      'cjs.scenario.yaml': passingScenario('cjs', '    - custom: {module: ./checks/c.cjs, params: {max: many}}'),
      'inline.scenario.yaml': passingScenario('"inline {{ vars.n }}"', `${check}dataset: [{n: a, max: 5}, {n: b, max: 1.5}, {n: c, max: 1.5}]\n`),
      'csv.scenario.yaml': passingScenario('"csv {{ vars.n }}"', `${check}dataset: maxes.csv\n`),
    });
    // Refused before anything runs: the CLI's entry in-process (runMain); the built CLI refuses a
    // module that ends the process while imported below (exit 2).
    const refused = await runMain(['run', '.', '--out', 'out'], cwd);
    return { refused, ranAny: existsSync(join(cwd, 'out')) };
  });

  it('a custom check module decides rows; params its schema refuses stop the suite with exit 2 before any run', async () => {
    const { ran } = await decided();
    expect(ran.exitCode, ran.all).toBe(1);
    expect(ran.stdout).toMatch(/custom#1: expected at most 1 calls; saw 2/);

    const { refused, ranAny } = await refusedParams();
    expect(refused.exitCode, refused.all).toBe(2);
    expect(linesAbout(refused.stderr, 'bad.scenario.yaml')).toMatch(/bad\.scenario\.yaml:13:\d+ at expect\.checks\[1\]\.custom\.params: max: expected integer/);
    expect(ranAny).toBe(false);
  });

  it('validate and run refuse a module that is a folder or not JavaScript, with the same located message', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/dir.mjs/index.mjs': 'export default () => ({status: "pass", reason: "x"});\n',
      'checks/x.py': 'print(1)\n',
      'm.scenario.yaml': passingScenario('m', '    - custom: {module: ./checks/dir.mjs}\n    - custom: {module: ./checks/x.py}'),
    });
    // run's refusal in-process (runMain): the built CLI refuses a module that ends the process below.
    const validated = await runCli(['validate', 'm.scenario.yaml'], dir);
    const ran = await runMain(['run', 'm.scenario.yaml', '--out', 'out'], dir);
    for (const result of [validated, ran]) {
      expect(result.exitCode, result.all).toBe(2);
      expect(result.stderr).toMatch(
        /m\.scenario\.yaml:13:\d+ at expect\.checks\[1\]\.custom\.module: custom check module \.\/checks\/dir\.mjs is a folder; name the module file in it/,
      );
      expect(result.stderr).toMatch(
        /m\.scenario\.yaml:14:\d+ at expect\.checks\[2\]\.custom\.module: custom check module \.\/checks\/x\.py is not a JavaScript module/,
      );
      expect(result.stderr).not.toMatch(/could not be imported/);
    }
  });

  it('validate and run agree on a CommonJS module.exports = {check, paramsSchema}: run reads both from it', async () => {
    const { validated, ran, report } = await decided();
    expect(validated.exitCode, validated.all).toBe(0);
    const row = report.scenarios.find((scenario) => scenario.name === 'cjs');
    expect(row?.status, ran.all).toBe('pass');
    expect(row?.checks.find((check) => check.kind === 'custom')).toMatchObject({ status: 'pass', reason: 'ok' });
    // Its paramsSchema is read from module.exports too.
    const { refused } = await refusedParams();
    expect(refused.exitCode, refused.all).toBe(2);
    expect(linesAbout(refused.stderr, 'cjs.scenario.yaml')).toMatch(/cjs\.scenario\.yaml:13:\d+ at expect\.checks\[1\]\.custom\.params: max: expected integer/);
  });

  // Checks that leave errors unawaited, run once (--concurrency 1, in file order): a.scenario.yaml's
  // rejects a promise and throws from a timer; c.scenario.yaml's rejects one in the run that ends
  // last, which a scripted run settles in microtasks alone (Node tells the rejection only after a
  // turn): the third stray error. Read by the two tests below.
  const strayRun = shared(async (make) => {
    const stray = `export default async function () {
  Promise.reject(new Error('forgot to await'));
  setTimeout(() => { throw new Error('timer threw'); }, 1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  return {status: 'pass', reason: 'ok'};
}
`;
    const dir = make({
      'agent.yaml': AGENT_YAML,
      'checks/stray.mjs': stray,
      'checks/rej.mjs': "export default function () { Promise.reject(new Error('left unawaited')); return {status: 'pass', reason: 'ok'}; }\n",
      'a.scenario.yaml': passingScenario('a', '    - custom: {module: checks/stray.mjs}'),
      'b.scenario.yaml': passingScenario('b'),
      'c.scenario.yaml': passingScenario('c', '    - custom: {module: checks/rej.mjs}'),
      'job-summary.md': '',
    });
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'table,json,md,html,junit', '--concurrency', '1'], dir, {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: join(dir, 'job-summary.md'),
    });
    const read = (file: string) => readFileSync(join(dir, file), 'utf8');
    const report = JSON.parse(read('out/report.json')) as { summary: { total: number; passed: number }; stray_errors?: { count: number; first: string } };
    return { result, report, read };
  });

  it('an error a custom check leaves unawaited (a rejected promise, a throwing timer) fails the run, with every row and report written', async () => {
    const { result, report, read } = await strayRun();
    expect(result.exitCode, result.all).toBe(1);
    const note =
      "an error no code awaited was thrown during the run (a custom check's unawaited promise or a timer?), so the run fails though its rows may pass (3 in all; the first:) Error: forgot to await (at default (file://";
    expect(result.stderr).toContain(`agentcheck: ${note}`);
    expect(result.stderr).not.toContain('Node.js v');
    expect(report.summary).toMatchObject({ total: 3, passed: 3 });
    // The reports agree with the exit code: every row passed, yet the run failed.
    expect(report.stray_errors).toEqual({ count: 3, first: expect.stringMatching(/^Error: forgot to await \(at default \(file:\/\/.*stray\.mjs:2:\d+\)\)$/) });
    const summaryLine = '3 scenarios: 3 passed, 0 failed, 0 errored, 3 stray errors (';
    expect(result.stdout).toContain(summaryLine);
    expect(result.stdout).toContain(`::error title=agentcheck::A${note.slice(1)}`);
    for (const markdown of [read('out/report.md'), read('job-summary.md')]) {
      expect(markdown).toMatch(/^# agentcheck: FAILED\n\n\*\*3 scenarios: 3 passed, 0 failed, 0 errored, 3 stray errors \(/);
      expect(markdown).toContain(`> A${note.slice(1)}`);
    }
    const html = read('out/report.html');
    expect(html).toContain('<h1>agentcheck: <span class="verdict-FAILED">FAILED</span></h1>');
    expect(html).toContain(summaryLine);
    expect(html).toContain('data-stray-errors="3"');
    // JUnit too: one errored testcase of its own beside the three passing rows.
    const junit = read('out/junit.xml');
    expect(junit).toMatch(/<testsuites name="agentcheck" tests="4" failures="0" errors="1" /);
    expect(junit).toMatch(
      /<testcase name="stray errors" classname="agentcheck" time="0.000">\n {6}<error message="An error no code awaited [^"]*forgot to await[^"]*" type="STRAY_ERROR">/,
    );
  });

  it('an unawaited rejection in the run that ends last still reaches every report, not only stderr', async () => {
    // c.scenario.yaml's rejection is the third stray error of the run above (a.scenario.yaml's check
    // makes two): each report counts it.
    const { result, report, read } = await strayRun();
    expect(result.exitCode, result.all).toBe(1);
    expect(report.stray_errors?.count).toBe(3);
    expect(read('out/report.md')).toMatch(/^# agentcheck: FAILED\n\n\*\*3 scenarios: 3 passed, 0 failed, 0 errored, 3 stray errors \(/);
    expect(read('out/junit.xml')).toMatch(/<error message="An error no code awaited [^"]*\(3 in all; the first:\)[^"]*" type="STRAY_ERROR">/);
  });

  it('a custom check that calls process.exit() gets an error result, in the check or from a timer, and every report is written', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/exit.mjs': 'export default function () { process.exit(0); }\n',
      'checks/later.mjs': "export default function () { setTimeout(() => process.exit(3), 1); return {status: 'pass', reason: 'ok'}; }\n",
      'a.scenario.yaml': passingScenario('a', '    - custom: {module: checks/exit.mjs}'),
      'b.scenario.yaml': passingScenario('b', '    - custom: {module: checks/later.mjs}'),
      'c.scenario.yaml': passingScenario('c'),
    });
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json', '--concurrency', '1'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as {
      scenarios: Array<{ name: string; status: string; checks: Array<{ status: string; reason: string }> }>;
    };
    const byName = Object.fromEntries(report.scenarios.map((row) => [row.name, row]));
    expect(Object.keys(byName).sort()).toEqual(['a', 'b', 'c']);
    expect(byName.a.status).toBe('error');
    expect(byName.a.checks.at(-1)).toMatchObject({ status: 'error', reason: expect.stringContaining('process.exit(0) was called during the run') });
    expect(byName.c.status).toBe('pass');
    // The timer's call had no check to fail: it fails the run as a stray error.
    expect(result.stderr).toContain('process.exit(3) was called during the run');
    // Located at the check's own line, not at agentcheck's guard that refused the call.
    expect(result.stderr).toMatch(/process\.exit\(3\) was called during the run; [^\n]*\(at [^\n]*checks\/later\.mjs:1:\d+\)/);
    expect(result.stderr).not.toMatch(/at process\.exit \(/);
  });

  it('a custom check module that calls process.exit() while being imported is a load error naming it (exit 2), and the process goes on to say so', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/importexit.mjs': "process.exit(0);\nexport default () => ({status: 'pass', reason: 'ok'});\n",
      'checks/cjsexit.cjs': 'process.exit(3);\nmodule.exports = () => ({status: "pass", reason: "ok"});\n',
      'a.scenario.yaml': passingScenario('a', '    - custom: {module: ./checks/importexit.mjs}'),
      'b.scenario.yaml': passingScenario('b', '    - custom: {module: checks/cjsexit.cjs}'),
    });
    const result = await runCli(['run', '.', '--out', 'out'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain(
      'a.scenario.yaml:13:24 at expect.checks[1].custom.module: custom check module ./checks/importexit.mjs called process.exit(0) while being imported; a check module may not end the agentcheck process',
    );
    expect(result.stderr).toContain('custom check module checks/cjsexit.cjs called process.exit(3) while being imported');
    expect(result.stderr).not.toMatch(/never settle/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('params a dataset row gives that the paramsSchema refuses name the row, inline and CSV, for each row that has it', async () => {
    const { refused } = await refusedParams();
    expect(refused.exitCode, refused.all).toBe(2);
    const at = 'scenario.yaml:13:50 at expect.checks[1].custom.params: max: expected integer, got';
    expect(refused.stderr).toContain(`inline.${at} number 1.5 (the paramsSchema of checks/limit.mjs) (dataset row dataset[1])`);
    // A CSV value is a string, never an integer: the row that gave it is named.
    expect(refused.stderr).toContain(`csv.${at} string "5" (the paramsSchema of checks/limit.mjs) (dataset row maxes.csv:2)`);
    // Row c gives row b's value: the problem is at a templated param, so row c is told too; row a is valid.
    expect(refused.stderr).toContain(`inline.${at} number 1.5 (the paramsSchema of checks/limit.mjs) (dataset row dataset[2])`);
    expect(refused.stderr).not.toContain('dataset[0]');
  });

  it('dataset rows are ordinary scenarios for --grep and --shard', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'ids.csv': 'id\n1\n2\n3\n',
      'rows.scenario.yaml': passingScenario('"lookup {{ vars.id }}"', 'dataset: ids.csv\n'),
    });
    const grep = await runCli(['run', '.', '--out', 'out', '--grep', 'lookup 2', '--reporter', 'table'], dir);
    expect(grep.exitCode, grep.all).toBe(0);
    expect(grep.stdout).toMatch(/1 scenarios?: 1 passed/);
    expect(grep.stdout).toMatch(/rows\.scenario\.yaml#lookup 2/);
    // In-process (runMainFull): which rows a shard takes is the planner's logic.
    const shard = await runMainFull(['run', '.', '--out', 'out2', '--shard', '2/3', '--reporter', 'table'], dir);
    expect(shard.exitCode, shard.all).toBe(0);
    expect(shard.stdout).toMatch(/1 scenarios?: 1 passed/);
  });
});
