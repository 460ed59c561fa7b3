import { closeSync, constants, mkdirSync, openSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { readSpansJsonl } from '../../src/spans/jsonl.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { rawAgentcheck } from '../runner/mcp/mcp-client.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

/** A named pipe at `path` that nobody writes; should a reader open it after all, the test's end releases it. */
async function namedPipe(path: string): Promise<string> {
  await execa('mkfifo', [path]);
  onTestFinished(() => {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader: nothing is blocked.
    }
  });
  return path;
}

const refused = (path: string) => `${path}: is a named pipe (FIFO), not a regular file; expected a spans.jsonl file`;

// A reader that waits on the pipe never returns: the generous limit turns that into this test's failure.
describe('a spans.jsonl that is a named pipe is refused unopened, by every reader', { timeout: 60_000 }, () => {
  it('agentcheck spans query exits 2 naming it', async () => {
    const dir = tempDir();
    const pipe = await namedPipe(join(dir, 'spans.jsonl'));
    const result = await runCli(['spans', 'query', 'spans.jsonl'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`agentcheck: invalid input: ${refused(pipe)}`);
    expect(result.stdout).toBe('');
  });

  it('the library readSpansJsonl rejects with a ConfigError CONFIG_NOT_A_FILE', async () => {
    const pipe = await namedPipe(join(tempDir(), 'spans.jsonl'));
    const error = await readSpansJsonl(pipe).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: 'CONFIG_NOT_A_FILE', message: refused(pipe) });
  });

  it('MCP query_spans answers a tool error, and the server still exits when the client closes stdin', async () => {
    const dir = tempDir();
    const pipe = await namedPipe(join(dir, 'spans.jsonl'));
    const server = await rawAgentcheck(dir);
    const answer = await server.callTool('query_spans', '{"file": "spans.jsonl"}');
    expect(answer.result).toMatchObject({ isError: true, content: [{ type: 'text', text: `invalid input: ${refused(pipe)}` }] });
    const exited = await server.close();
    expect(exited.exitCode, exited.stderr).toBe(0);
  });

  it('merge leaves out a shard spans.jsonl that is a pipe, naming it, and report.html refuses one in its folder, without waiting', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
    // The shard merge reads, made by the CLI's entry in-process (runMain): merge is what this tests.
    const run = await runMain(['run', '.', '--out', 'shard'], dir);
    expect(run.exitCode, run.all).toBe(0);
    renameSync(join(dir, 'shard/spans.jsonl'), join(dir, 'spans.kept'));
    await namedPipe(join(dir, 'shard/spans.jsonl'));
    mkdirSync(join(dir, 'merged'));
    const outPipe = await namedPipe(join(dir, 'merged/spans.jsonl'));
    const merged = await runCli(['merge', 'shard/report.json', '--out', 'merged', '--reporter', 'json,html'], dir);
    expect(merged.stderr).toContain('agentcheck: left out shard/spans.jsonl, which is a named pipe (FIFO), not a regular file');
    expect(merged.stderr).toContain(`report.html: ${refused(outPipe)}`);
    // The report asked for and not written fails the merge (docs/cli.md, merge).
    expect(merged.exitCode).toBe(1);
  });
});
