import { readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadScenarioFile } from '../../src/runner/scenario/load-scenario-file.js';
import { testRun } from '../../src/runner/test-run.js';
import { tempDir } from '../helpers/temp-dir.js';
import { call, connectAgentcheck, text } from './mcp/mcp-client.js';

// A workspace folder that holds the temporary folder its copy would be made in (`/`, or TMPDIR
// inside it) is the input's fault, said before the run in the CLI's words (docs/cli.md, test-run),
// whatever entry runs it: fs.cp would say only "cannot copy ... to a subdirectory of self".

const agent = { id: 'quiet', agent: { name: 'Quiet', llm: { provider: 'scripted', model: 's' }, tools: [{ name: 'read_file', builtin: 'read_file' }] } };
const inputs = { messages: [{ role: 'user' as const, content: 'hi' }] };

/** A folder with the temporary folder inside it, and the words its refusal ends with. */
function folderHoldingTemp(): { ws: string; tmp: string; refusal: string } {
  const ws = realpathSync(tempDir({ 'tmp/.keep': '', 'a.txt': 'hi\n' }));
  const tmp = join(ws, 'tmp');
  const refusal = `workspace ${ws} cannot be copied: it holds the temporary folder ${tmp}, where its copy is made (a folder cannot be copied into itself); give a narrower folder, or set TMPDIR to a folder outside it`;
  return { ws, tmp, refusal };
}

const savedTmp = process.env.TMPDIR;
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});

describe('a workspace folder that holds the temporary folder is refused before the run', () => {
  it('library testRun: a ConfigError at workspace', async () => {
    const { ws, tmp, refusal } = folderHoldingTemp();
    process.env.TMPDIR = tmp;
    const error = await testRun({ agent, inputs, workspace: ws, script: [{ text: 'hi' }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`testRun at workspace: ${refusal}`);
    expect(readdirSync(tmp)).toEqual(['.keep']);
  });

  it("a scenario's workspace, at load", () => {
    const { ws, tmp, refusal } = folderHoldingTemp();
    process.env.TMPDIR = tmp;
    const dir = tempDir();
    writeFileSync(join(dir, 'agent.json'), JSON.stringify(agent));
    writeFileSync(
      join(dir, 'a.scenario.json'),
      JSON.stringify({ name: 'copies', agent: 'agent.json', workspace: ws, inputs, model: { script: [{ text: 'hi' }] } }),
    );
    expect(() => loadScenarioFile({ file: join(dir, 'a.scenario.json'), root: dir }, { agents: new Map() })).toThrow(refusal);
  });

  it('MCP test_run (the built CLI): invalid input at arguments.workspace', async () => {
    const { ws, tmp, refusal } = folderHoldingTemp();
    const client = await connectAgentcheck(undefined, { TMPDIR: tmp });
    try {
      const result = await call(client, 'test_run', { agent, inputs, workspace: ws, script: [{ text: 'hi' }] });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(`invalid input: arguments at workspace: ${refusal}`);
      expect(readdirSync(tmp)).toEqual(['.keep']);
    } finally {
      await client.close();
    }
  });
});
