import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import type { Report } from '../../src/runner/report/report.js';
import { STARTER_FILES } from '../../src/runner/init/starter-files.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

describe('agentcheck init (end to end)', () => {
  it('writes a starter that validate and run accept offline, with one caught defect', async () => {
    const dir = tempDir();
    const init = await runCli(['init', 'starter'], dir);
    expect(init.exitCode, init.all).toBe(0);
    for (const file of Object.keys(STARTER_FILES)) expect(existsSync(join(dir, 'starter', file)), file).toBe(true);
    expect(init.stdout).toContain('Next: cd starter && npx agentcheck validate . && npx agentcheck run . (see starter/README.md)');
    expect(readFileSync(join(dir, 'starter/README.md'), 'utf8')).toContain('Run these commands from this folder');

    const validate = await runCli(['validate', 'starter'], dir);
    expect(validate.exitCode, validate.all).toBe(0);

    // No network: any request would need a mock or a key, and neither exists here.
    const run = await runCli(['run', 'starter', '--out', 'out'], dir, { HTTPS_PROXY: 'http://127.0.0.1:9', OPENAI_API_KEY: '' });
    expect(run.exitCode, run.all).toBe(0);
    expect(run.stdout).toContain('2 scenarios: 2 passed (1 as an expected failure), 0 failed, 0 errored');
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    const defect = report.scenarios.find((row) => row.expect_failure)!;
    expect(defect.status).toBe('pass');
    expect(defect.checks[0]).toMatchObject({ kind: 'tool_order', status: 'fail' });
    expect(existsSync(join(dir, 'out/report.html'))).toBe(true);
  });

  it('defaults to the current folder and refuses to overwrite any existing file', async () => {
    const dir = tempDir({ 'README.md': 'mine\n' });
    const result = await runCli(['init'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('already has README.md; agentcheck init never overwrites files');
    // The rule it applies, not "a new or empty folder": none of the starter's files may exist.
    expect(result.stderr).toContain(
      'so it writes nothing: expected a folder where none of agents/support-bot.yaml, scenarios/refund.scenario.yaml, scenarios/caught-defect.scenario.yaml, agentcheck.config.yaml, README.md exists (other files may be there; try agentcheck init agent-tests)',
    );
    expect(result.stderr).not.toContain('empty folder');
    // The folder it suggests is one it would write: not agent-tests once that has the starter.
    const again = tempDir();
    expect((await runCli(['init', 'agent-tests'], again)).exitCode).toBe(0);
    const twice = await runCli(['init', 'agent-tests'], again);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('(other files may be there; try agentcheck init agent-tests-2)');
    // A name taken by a file or a link to nothing is passed over too: init could not write there.
    writeFileSync(join(again, 'agent-tests-2'), 'x');
    symlinkSync(join(again, 'nowhere'), join(again, 'agent-tests-3'));
    expect((await runCli(['init', 'agent-tests'], again)).stderr).toContain('(other files may be there; try agentcheck init agent-tests-4)');
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(dir, 'agents'))).toBe(false);

    const empty = tempDir();
    expect((await runCli(['init'], empty)).exitCode).toBe(0);
    expect(existsSync(join(empty, 'agentcheck.config.yaml'))).toBe(true);
    // A folder with other files is fine, as the message says: they are left alone.
    const other = tempDir({ 'notes.txt': 'hi\n' });
    expect((await runCli(['init'], other)).exitCode).toBe(0);
    expect(readFileSync(join(other, 'notes.txt'), 'utf8')).toBe('hi\n');
  });

  it("the Next line's commands work as printed: from inside the folder the starter's config applies", async () => {
    const dir = tempDir();
    const init = await runCli(['init', 'my tests'], dir);
    expect(init.exitCode, init.all).toBe(0);
    expect(init.stdout).toContain("Next: cd 'my tests' && npx agentcheck validate . && npx agentcheck run . (see my tests/README.md)");
    const inside = join(dir, 'my tests');
    expect((await runCli(['validate', '.'], inside)).exitCode).toBe(0);
    const run = await runCli(['run', '.'], inside, { HTTPS_PROXY: 'http://127.0.0.1:9', OPENAI_API_KEY: '' });
    expect(run.exitCode, run.all).toBe(0);
    // The starter README's step 2: its config's reporters, reports/ in the folder.
    for (const file of ['report.json', 'report.html', 'spans.jsonl']) expect(existsSync(join(inside, 'reports', file)), file).toBe(true);
  });

  it("prints a cd that takes a folder named with a leading dash as a folder, not cd's option", async () => {
    const dir = tempDir();
    const init = await runCli(['init', '--', '-dash'], dir);
    expect(init.exitCode, init.all).toBe(0);
    const cd = /Next: (cd .*?) && npx agentcheck validate/.exec(init.stdout)?.[1];
    expect(cd).toBe('cd -- -dash');
    const shell = await execa('bash', ['-c', `${cd} && pwd`], { cwd: dir, reject: false });
    expect([shell.exitCode, shell.stdout]).toEqual([0, join(realpathSync(dir), '-dash')]);
  });

  it('says so when the target is a file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'taken'), 'x');
    const result = await runCli(['init', 'taken'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/agentcheck: invalid input: taken: cannot write the starter there/);
  });
});
