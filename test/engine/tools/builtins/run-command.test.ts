import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../../src/config/errors.js';
import { BUILTINS } from '../../../../src/engine/tools/builtins/index.js';
import type { ToolContext } from '../../../../src/engine/tools/tool.js';
import { FolderWorkspace } from '../../../../src/engine/workspace/folder-workspace.js';
import { makeToolContext } from '../tool-context.js';

const run = (argv: unknown, context: ToolContext) => BUILTINS.run_command.run({ argv }, context);

let workspace: FolderWorkspace;
let ctx: ToolContext;

beforeAll(async () => {
  workspace = FolderWorkspace.temp();
  ctx = makeToolContext({ workspace, env: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-secret', LANG: 'C.UTF-8' } });
});
afterAll(() => workspace.dispose());

async function toolError(promise: Promise<unknown>, code: string): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code).toBe(code);
  return error as ToolError;
}

describe('run_command', () => {
  it('runs in the workspace root and returns exit code and raw output', async () => {
    const result = await run(['node', '-e', 'console.log(process.cwd()); console.error("warn")'], ctx);
    expect(result).toEqual({ exit_code: 0, stdout: `${await workspace.root()}\n`, stderr: 'warn\n' });
  });

  it('treats a non-zero exit as a normal result', async () => {
    expect(await run(['node', '-e', 'process.exit(3)'], ctx)).toEqual({ exit_code: 3, stdout: '', stderr: '' });
  });

  it('passes shell syntax through as inert argument text', async () => {
    const result = await run(['echo', 'a; touch pwned', '$(touch pwned2)', '`touch pwned3`', '&& touch pwned4'], ctx);
    expect(result).toEqual({ exit_code: 0, stdout: 'a; touch pwned $(touch pwned2) `touch pwned3` && touch pwned4\n', stderr: '' });
    expect(await readdir(await workspace.root())).toEqual([]);
  });

  it("scrubs the environment to PATH and LANG, plus the recursion guard's marker", async () => {
    const result = (await run(['node', '-e', 'console.log(JSON.stringify(Object.keys(process.env).sort()))'], ctx)) as { stdout: string };
    expect(JSON.parse(result.stdout)).toEqual(['AGENTCHECK_INSIDE_RUN', 'LANG', 'PATH']);
  });

  it('caps stdout at 64 KB with a truncation marker', async () => {
    const result = (await run(['node', '-e', 'process.stdout.write("y".repeat(100000))'], ctx)) as { stdout: string };
    expect(result.stdout).toBe(`${'y'.repeat(65536)}\n[truncated ${100000 - 65536} bytes]`);
  });

  it('throws NOT_FOUND, SIGNAL and INVALID_ARGUMENT (error.type not_found and signal, as for command tools)', async () => {
    const missing = await toolError(run(['agentcheck-no-such-program'], ctx), 'NOT_FOUND');
    expect(missing.message).toContain('agentcheck-no-such-program');
    expect(missing.tool).toBe('run_command');
    const killed = await toolError(run(['node', '-e', 'process.kill(process.pid, "SIGKILL")'], ctx), 'SIGNAL');
    expect(killed.message).toContain('SIGKILL');
    await toolError(run([], ctx), 'INVALID_ARGUMENT');
    await toolError(run('ls -la', ctx), 'INVALID_ARGUMENT');
  });

  it('throws CANCELED when the call is aborted', async () => {
    const controller = new AbortController();
    // Ten minutes: only the abort can end it, however slow the machine.
    const pending = run(['node', '-e', 'setTimeout(() => {}, 600000)'], { ...ctx, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await toolError(pending, 'CANCELED');
  });
});
