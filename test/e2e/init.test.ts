import { existsSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import type { Report } from '../../src/runner/report/report.js';
import { STARTER_FILES } from '../../src/runner/init/starter-files.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runMain } from '../helpers/run-main.js';
import { runCli } from './cli.js';

/** The starter as init writes it, under `folder`: a folder init has already filled. */
function starterIn(folder: string): Record<string, string> {
  return Object.fromEntries(Object.entries(STARTER_FILES).map(([file, text]) => [`${folder}/${file}`, text]));
}

describe('agentcheck init (end to end)', () => {
  it("writes a starter that validate and run accept offline, with one caught defect, by the Next line's commands as printed", async () => {
    const dir = tempDir();
    const init = await runCli(['init', 'my tests'], dir);
    expect(init.exitCode, init.all).toBe(0);
    for (const file of Object.keys(STARTER_FILES)) expect(existsSync(join(dir, 'my tests', file)), file).toBe(true);
    expect(init.stdout).toContain("Next: cd 'my tests' && npx agentcheck validate . && npx agentcheck run . (see my tests/README.md)");
    expect(readFileSync(join(dir, 'my tests/README.md'), 'utf8')).toContain('Run these commands from this folder');

    // From inside the folder the starter's config applies.
    const inside = join(dir, 'my tests');
    const validate = await runCli(['validate', '.'], inside);
    expect(validate.exitCode, validate.all).toBe(0);
    // No network: any request would need a mock or a key, and neither exists here.
    const run = await runCli(['run', '.'], inside, { HTTPS_PROXY: 'http://127.0.0.1:9', OPENAI_API_KEY: '' });
    expect(run.exitCode, run.all).toBe(0);
    expect(run.stdout).toContain('2 scenarios: 2 passed (1 as an expected failure), 0 failed, 0 errored');
    // The starter README's step 2: its config's reporters, reports/ in the folder.
    for (const file of ['report.json', 'report.html', 'spans.jsonl']) expect(existsSync(join(inside, 'reports', file)), file).toBe(true);
    const report = JSON.parse(readFileSync(join(inside, 'reports/report.json'), 'utf8')) as Report;
    const defect = report.scenarios.find((row) => row.expect_failure)!;
    expect(defect.status).toBe('pass');
    expect(defect.checks[0]).toMatchObject({ kind: 'tool_order', status: 'fail' });
  });

  it('defaults to the current folder and refuses to overwrite any existing file', async () => {
    // agent-tests holds the starter already, as a first init there leaves it.
    const dir = tempDir({ 'README.md': 'mine\n', ...starterIn('agent-tests') });
    const result = await runCli(['init'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('already has README.md; agentcheck init never overwrites files');
    // The rule it applies, not "a new or empty folder": none of the starter's files may exist.
    // The folder it suggests is one it would write: not agent-tests once that has the starter.
    expect(result.stderr).toContain(
      'so it writes nothing: expected a folder where none of agents/support-bot.yaml, scenarios/refund.scenario.yaml, scenarios/caught-defect.scenario.yaml, agentcheck.config.yaml, README.md exists (other files may be there; try agentcheck init agent-tests-2)',
    );
    expect(result.stderr).not.toContain('empty folder');
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(dir, 'agents'))).toBe(false);

    // A starter folder given by name is refused too; a name taken by a file or a link to nothing
    // is passed over: init could not write there.
    const again = tempDir({ ...starterIn('agent-tests'), 'agent-tests-2': 'x' });
    symlinkSync(join(again, 'nowhere'), join(again, 'agent-tests-3'));
    // The same refusal as above (nothing written): the CLI's entry in-process (runMain).
    const twice = await runMain(['init', 'agent-tests'], again);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('already has agent-tests/agents/support-bot.yaml');
    expect(twice.stderr).toContain('(other files may be there; try agentcheck init agent-tests-4)');
    expect(readdirSync(again).sort()).toEqual(['agent-tests', 'agent-tests-2', 'agent-tests-3']);
    expect(readFileSync(join(again, 'agent-tests-2'), 'utf8')).toBe('x');

    // A folder with other files is fine, as the message says: they are left alone. init's success
    // is on the built CLI above: this one runs the CLI's entry in-process (runMain).
    const other = tempDir({ 'notes.txt': 'hi\n' });
    const here = await runMain(['init'], other);
    expect(here.exitCode, here.all).toBe(0);
    // Written here: the Next line needs no cd.
    expect(here.stdout).toContain('Next: npx agentcheck validate . && npx agentcheck run . (see README.md)');
    expect(existsSync(join(other, 'agentcheck.config.yaml'))).toBe(true);
    expect(readFileSync(join(other, 'notes.txt'), 'utf8')).toBe('hi\n');
  });

  it("prints a cd that takes a folder named with a leading dash as a folder, not cd's option", async () => {
    const dir = tempDir();
    // What main() parses and prints (init's success is on the built CLI above): in-process (runMain).
    const init = await runMain(['init', '--', '-dash'], dir);
    expect(init.exitCode, init.all).toBe(0);
    const cd = /Next: (cd .*?) && npx agentcheck validate/.exec(init.stdout)?.[1];
    expect(cd).toBe('cd -- -dash');
    const shell = await execa('bash', ['-c', `${cd} && pwd`], { cwd: dir, reject: false });
    expect([shell.exitCode, shell.stdout]).toEqual([0, join(realpathSync(dir), '-dash')]);
  });

  it('says so when the target is a file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'taken'), 'x');
    // A refusal as init's first above, which the built CLI gives: in-process (runMain).
    const result = await runMain(['init', 'taken'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/agentcheck: invalid input: taken: cannot write the starter there/);
  });
});
