import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../../src/config/errors.js';
import type { CommandSpec } from '../../../../src/engine/revision/types.js';
import { createCommandTool } from '../../../../src/engine/tools/kinds/command-tool.js';
import type { ToolContext } from '../../../../src/engine/tools/tool.js';
import { FolderWorkspace } from '../../../../src/engine/workspace/folder-workspace.js';
import { makeToolContext } from '../tool-context.js';

const PRINT_ENV = 'console.log(JSON.stringify(process.env))';

function tool(command: CommandSpec) {
  return createCommandTool({ name: 'cmd', description: 'test command', command });
}

let workspace: FolderWorkspace;
let ctx: ToolContext;

beforeAll(() => {
  workspace = FolderWorkspace.temp();
  ctx = makeToolContext({ workspace, env: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-secret', HOME: '/home/x', SHOP_TOKEN: 't0k' } });
});
afterAll(() => workspace.dispose());

describe('command tool', () => {
  it('describes itself from the spec, with default parameters', () => {
    const made = tool({ argv: ['echo'] });
    expect(made).toMatchObject({ name: 'cmd', description: 'test command', kind: 'command', readOnly: false, parameters: { type: 'object' } });
  });

  it('templates each argv element into exactly one argument', async () => {
    const made = tool({ argv: ['node', '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '{{ args.name }}', 'n={{ args.n }}', '{{ args.list }}'] });
    const outcome = await made.execute({ name: 'a b; touch pwned $(touch p2) `touch p3`', n: 4, list: [1, 2] }, ctx);
    expect(outcome.isError).toBe(false);
    const result = outcome.result as { stdout: string; exit_code: number };
    expect(result.exit_code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(['a b; touch pwned $(touch p2) `touch p3`', 'n=4', '[1,2]']);
    expect(await readdir(await workspace.root())).toEqual([]);
  });

  it('hides ctx.env except PATH and allow_env names', async () => {
    const hidden = await tool({ argv: ['node', '-e', PRINT_ENV] }).execute({}, ctx);
    const env = JSON.parse((hidden.result as { stdout: string }).stdout);
    // The recursion guard's marker: an agentcheck test-run the command starts refuses to run.
    expect(env).toEqual({ PATH: process.env.PATH, AGENTCHECK_INSIDE_RUN: '1' });

    const allowed = await tool({ argv: ['node', '-e', PRINT_ENV], allow_env: ['OPENAI_API_KEY', 'NOT_SET'] }).execute({}, ctx);
    expect(JSON.parse((allowed.result as { stdout: string }).stdout)).toEqual({
      PATH: process.env.PATH,
      OPENAI_API_KEY: 'sk-secret',
      AGENTCHECK_INSIDE_RUN: '1',
    });
  });

  it('runs in the workspace root', async () => {
    const outcome = await tool({ argv: ['node', '-e', 'process.stdout.write(process.cwd())'] }).execute({}, ctx);
    expect((outcome.result as { stdout: string }).stdout).toBe(await workspace.root());
  });

  it('makes a non-zero exit an error outcome', async () => {
    const outcome = await tool({ argv: ['node', '-e', 'console.error("bad"); process.exit(2)'] }).execute({}, ctx);
    expect(outcome).toEqual({ isError: true, errorType: 'exit_2', result: { exit_code: 2, stdout: '', stderr: 'bad\n' } });
  });

  it('times out', async () => {
    // The child would sleep for ten minutes: only the kill at 200 ms lets this test end.
    const outcome = await tool({ argv: ['node', '-e', 'setTimeout(()=>{},600000)'], timeout_ms: 200 }).execute({}, ctx);
    expect(outcome.isError).toBe(true);
    expect(outcome.errorType).toBe('timeout');
    expect((outcome.result as { error: string }).error).toContain('200 ms');
  });

  it('reports a process killed by a signal', async () => {
    const outcome = await tool({ argv: ['node', '-e', 'process.kill(process.pid, "SIGTERM")'] }).execute({}, ctx);
    expect(outcome).toMatchObject({ isError: true, errorType: 'signal', result: { exit_code: null } });
    expect((outcome.result as { error: string }).error).toContain('SIGTERM');
  });

  it('reports a program that cannot start', async () => {
    const outcome = await tool({ argv: ['agentcheck-no-such-program'] }).execute({}, ctx);
    expect(outcome).toMatchObject({ isError: true, errorType: 'not_found' });
  });

  it('caps 10 MB of output at max_output_bytes (1 MB by default)', async () => {
    const outcome = await tool({ argv: ['node', '-e', 'process.stdout.write("z".repeat(10*1024*1024))'] }).execute({}, ctx);
    const stdout = (outcome.result as { stdout: string }).stdout;
    expect(outcome.isError).toBe(false);
    expect(stdout.length).toBeLessThan(1024 * 1024 + 100);
    expect(stdout.endsWith(`\n[truncated ${9 * 1024 * 1024} bytes]`)).toBe(true);

    const small = await tool({ argv: ['node', '-e', 'process.stdout.write("abcdef")'], max_output_bytes: 3 }).execute({}, ctx);
    expect((small.result as { stdout: string }).stdout).toBe('abc\n[truncated 3 bytes]');
  });

  it('cuts output at max_output_bytes before a character, never inside one (no U+FFFD), and keeps nothing after the cut', async () => {
    // "a" then emoji of 4 bytes: a cap of 7 bytes would end 2 bytes into the second emoji.
    const program = 'process.stdout.write("a" + "\u{1F389}".repeat(5)); setTimeout(() => process.stdout.write("tail"), 50)';
    const outcome = await tool({ argv: ['node', '-e', program], max_output_bytes: 7 }).execute({}, ctx);
    expect((outcome.result as { stdout: string }).stdout).toBe(`a\u{1F389}\n[truncated ${1 + 4 * 5 + 4 - 5} bytes]`);
  });

  it("keeps a character whole across the pipe's chunks when the cap falls past a chunk that ends inside it", async () => {
    // 2 + 4 x 20,000 bytes, read in chunks of (usually) 64 KB: the first ends 2 bytes into an emoji.
    const program = 'process.stdout.write("ab" + "\u{1F389}".repeat(20000))';
    const outcome = await tool({ argv: ['node', '-e', program], max_output_bytes: 65536 }).execute({}, ctx);
    const stdout = (outcome.result as { stdout: string }).stdout;
    expect(stdout).not.toContain('\uFFFD');
    const [kept, marker] = stdout.split('\n[truncated ');
    expect(kept).toMatch(/^ab(\u{1F389})+$/u);
    expect(Buffer.byteLength(kept) + Number(/^(\d+) bytes\]$/.exec(marker)?.[1])).toBe(2 + 4 * 20000);
  });

  it('throws TEMPLATE_UNDEFINED naming the missing argument', async () => {
    const error = await tool({ argv: ['echo', '{{ args.missing }}'] })
      .execute({}, ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'TEMPLATE_UNDEFINED', tool: 'cmd' });
    expect((error as Error).message).toContain('args.missing');
    expect((error as Error).message).toContain('command.argv[1]');
  });

  describe('refuse_option_args', () => {
    // sh passes its arguments through verbatim (node would read `--x` after -e as its own option).
    const PRINT_ARGS = ['sh', '-c', 'for a; do printf "%s\\n" "$a"; done', 'sh'];
    const printed = (outcome: { result: unknown }) => (outcome.result as { stdout: string }).stdout.trim().split('\n');

    it('refuses a templated argument that would be read as an option, before the program runs', async () => {
      const made = tool({ argv: ['node', '-e', `require("fs").writeFileSync("ran", "")`, '{{ args.ref }}'], refuse_option_args: true });
      const error = await made.execute({ ref: '--output=/tmp/agentcheck-pwned' }, ctx).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolError);
      expect(error).toMatchObject({ code: 'OPTION_ARGUMENT', tool: 'cmd' });
      expect((error as Error).message).toContain('command.argv[3] would be "--output=/tmp/agentcheck-pwned"');
      expect(await readdir(await workspace.root())).toEqual([]);
    });

    it('caps the echoed value', async () => {
      const made = tool({ argv: ['echo', '{{ args.ref }}'], refuse_option_args: true });
      const error = await made.execute({ ref: `-${'x'.repeat(5000)}` }, ctx).catch((e: unknown) => e as Error);
      expect((error as Error).message).toContain('... (4801 more characters)');
      expect((error as Error).message.length).toBeLessThan(600);
    });

    it('lets written options, values not starting with "-", and anything after "--" through', async () => {
      const made = tool({ argv: [...PRINT_ARGS, '--format={{ args.f }}', '{{ args.ref }}', '--', '{{ args.path }}'], refuse_option_args: true });
      const outcome = await made.execute({ f: '-x', ref: 'main', path: '-n' }, ctx);
      expect(printed(outcome)).toEqual(['--format=-x', 'main', '--', '-n']);
    });

    it('is off unless asked for', async () => {
      const outcome = await tool({ argv: [...PRINT_ARGS, '{{ args.ref }}'] }).execute({ ref: '--output=x' }, ctx);
      expect(printed(outcome)).toEqual(['--output=x']);
    });
  });
});
