import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, runCli } from './cli.js';

const testRun = ['test-run', '--agent', 'fixtures/agents/support-bot.yaml', '--script', 'fixtures/test-run/refund-script.yaml'];

// Each kind of refusal (a flag given twice, a word more) is run on the built CLI, and each command's
// refusal, so the bundle's wiring of each check is proven end to end; the other cases run the
// CLI's own entry in-process (runMain), which refuses them the same way without a process.
describe('a single-value flag given twice (built CLI)', () => {
  it('is invalid input naming the flag and its first value, never a silent last-wins', async () => {
    // test-run's and resume's refusals on the built CLI are below (a word more); run's is here.
    const delta = await runMain([...testRun, '--message', 'hi', '--delta', 'a.yaml', '--delta', 'b.yaml'], ROOT);
    expect(delta.exitCode).toBe(2);
    expect(delta.stderr).toContain('--delta is given twice (first "a.yaml"); give it once');
    const message = await runMain([...testRun, '--message', 'first', '--message', 'second', '--json'], ROOT);
    expect(message.exitCode).toBe(2);
    expect(message.stdout).toBe('');
    const decision = await runMain(['resume', 'run-x', '--decision', 'approve', '--decision', 'deny'], ROOT);
    expect(decision.exitCode).toBe(2);
    expect(decision.stderr).toContain('--decision is given twice (first "approve")');
    const out = await runCli(['run', 'scenarios/workflows/file-report-plan.scenarios.yaml', '--out', tempDir(), '--out', tempDir()], ROOT);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain('--out is given twice');
    // A flag parsed into an object or a number still quotes the text the user typed.
    const shard = await runMain(['run', 'scenarios/workflows/file-report-plan.scenarios.yaml', '--shard', '1/2', '--shard', '2/2'], ROOT);
    expect(shard.exitCode).toBe(2);
    expect(shard.stderr).toContain('--shard is given twice (first "1/2"); give it once');
    const repeat = await runMain(['run', 'scenarios/workflows/file-report-plan.scenarios.yaml', '--repeat', ' 3', '--repeat', '2'], ROOT);
    expect(repeat.exitCode).toBe(2);
    expect(repeat.stderr).toContain('--repeat is given twice (first " 3"); give it once');
  });

  it('leaves the list flags repeatable', async () => {
    const dir = tempDir();
    const run = await runCli(
      ['run', 'scenarios/workflows/file-report-plan.scenarios.yaml', '--out', dir, '--reporter', 'json', '--reporter', 'md', '--tag', 'plan', '--tag', 'x'],
      ROOT,
    );
    expect(run.exitCode, run.all).toBe(0);
    const tokens = await runCli([...testRun, '--message', 'Refund order 1234, it arrived broken.', '--error-token', 'a', '--error-token', 'b', '--json'], ROOT);
    expect(tokens.exitCode, tokens.all).not.toBe(2);
  });
});

describe('a second value written after a flag that takes one (built CLI)', () => {
  const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nSteps.\n`;

  it('--overlay a b: the skill folder b, read as a path, is refused with a hint at --overlay', async () => {
    const dir = tempDir({ 'a/SKILL.md': skill('a'), 'b/SKILL.md': skill('b'), 'scenarios/.keep': '', 'notes/readme.txt': 'x\n' });
    const hint =
      '(b is a skill folder: if it is meant for --overlay, which takes one folder, join the folders with commas, as in --overlay FOLDER,b, or give the flag again: --overlay b)';
    // In-process (runMain): run's refusal on the built CLI is --out given twice, a word more test-run's below.
    const beside = await runMain(['run', join(ROOT, 'scenarios/workflows/file-report-plan.scenarios.yaml'), '--overlay', 'a', 'b'], dir);
    expect(beside.exitCode).toBe(2);
    expect(beside.stderr).toContain(
      `b: holds no scenario file (*.scenario.yaml, *.scenarios.yaml), though the other paths given do; give only folders that hold scenarios ${hint}`,
    );
    const alone = await runMain(['run', '--overlay', 'a', 'b'], dir);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain(`no scenarios to run under b (scenario files are named *.scenario.yaml or *.scenarios.yaml) ${hint}`);
    // A folder that is no skill gets no such hint.
    const other = await runMain(['run', join(ROOT, 'scenarios/workflows/file-report-plan.scenarios.yaml'), 'notes'], dir);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).not.toContain('--overlay');
  });

  it('test-run --error-token a b and --message hi there: the stray word names the flag and what to write', async () => {
    const tokens = await runCli([...testRun, '--message', 'hi', '--error-token', 'a', 'b'], ROOT);
    expect(tokens.exitCode).toBe(2);
    expect(tokens.stderr).toBe(
      'error: test-run takes flags only, no arguments; got "b" after --error-token a, and --error-token takes one value; give the flag again for each value: --error-token a --error-token b\n(add --help to the command for its usage)',
    );
    const message = await runMain([...testRun, '--message', 'hi', 'there'], ROOT);
    expect(message.exitCode).toBe(2);
    expect(message.stderr).toContain('got "there" after --message hi, and --message takes one value; quote a value that holds spaces: --message \'hi there\'');
    const alone = await runMain(['test-run', 'stray', ...testRun.slice(1), '--message', 'hi'], ROOT);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toBe('error: test-run takes flags only, no arguments; got "stray"\n(add --help to the command for its usage)');
  });

  it('every command with fixed arguments names the flag before a word more, as test-run does, exit 2 (black-box nit)', async () => {
    const hint = '\n(add --help to the command for its usage)';
    const cases: Array<[string[], string]> = [
      [
        ['resume', 'run-x', '--decision', 'approve', 'deny'],
        'error: resume takes 1 argument, <run_id>; got one more: "deny" after --decision approve, and --decision takes one value: approve or deny',
      ],
      [
        ['spans', 'query', 'spans.jsonl', '--trace', 'a', 'b'],
        'error: spans query takes 1 argument, <file>; got one more: "b" after --trace a, and --trace takes one value; quote a value that holds spaces: --trace \'a b\'',
      ],
      [
        ['spans', 'query', 'spans.jsonl', '--limit=3', '4'],
        'error: spans query takes 1 argument, <file>; got one more: "4" after --limit 3, and --limit takes one value',
      ],
      [['compare', 'a.json', '--json', 'b.json', 'c.json'], 'error: compare takes 2 arguments, <base> <head>; got one more: "c.json"'],
      [['init', 'a', 'b'], 'error: init takes at most 1 argument, [dir]; got one more: "b"'],
      [['mcp', 'x'], 'error: mcp takes no arguments; got "x"'],
      [['resume', '--decision', 'deny', 'run-x', '--', 'y'], 'error: resume takes 1 argument, <run_id>; got one more: "y"'],
    ];
    const dir = tempDir();
    // The first case of each command on the built CLI, the others in-process.
    const seen = new Set<string>();
    for (const [args, message] of cases) {
      const command = args[0] === 'spans' ? 'spans query' : args[0]!;
      const result = seen.has(command) ? await runMain(args, dir) : await runCli(args, dir);
      seen.add(command);
      expect([result.exitCode, result.stderr], args.join(' ')).toEqual([2, message + hint]);
    }
  });

  it("README's and docs/cli.md's synopses agree, and only --variant and --tag are shown taking several values", () => {
    const synopsis = (file: string, command: string) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const start = text.search(new RegExp(`^agentcheck ${command} [[-]`, 'm'));
      // The synopsis runs to the next command's line or the end of the block.
      const end = text.slice(start).search(/\n(agentcheck |```)/);
      return text.slice(start, start + end).replace(/\s+/g, ' ');
    };
    for (const command of ['run', 'test-run']) {
      const readme = synopsis('README.md', command);
      expect(readme).toBe(synopsis('docs/cli.md', command));
      expect([...readme.matchAll(/\[(--[\w-]+) [A-Z]+\.\.\.\]/g)].map((match) => match[1])).toEqual(command === 'run' ? ['--variant', '--tag'] : []);
    }
  });
});
