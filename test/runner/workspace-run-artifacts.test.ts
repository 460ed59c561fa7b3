import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../src/runner/scenario/run-scenario.js';
import { testRun, type TestRunRequest } from '../../src/runner/test-run.js';
import { tempDir } from '../helpers/temp-dir.js';
import { call, connectAgentcheck, text } from './mcp/mcp-client.js';

// Every workspace copy a run makes leaves paused runs' files out, wherever they lie in the folder
// (docs/mcp.md, test_run; docs/formats.md, Scenario), not only the CLI's --workspace copy.

const RUN_ID = '0123456789abcdef0123456789abcdef';

/** A folder holding a file the agent may read and an earlier runs folder's paused run (its checkpoint, claim file and workspace). */
function folderWithPausedRun(): string {
  return tempDir({
    'a.txt': 'hi\n',
    [`old/${RUN_ID}.checkpoint.json`]: '{"schema": "agentcheck.run-checkpoint/1"}\n',
    [`old/.${RUN_ID}.checkpoint.json.claimed`]: '{}\n',
    [`old/${RUN_ID}.workspace/secret.txt`]: 'paused\n',
  });
}

const agent = { id: 'reader', agent: { name: 'Reader', llm: { provider: 'scripted', model: 's' }, tools: [{ name: 'read_file', builtin: 'read_file' }] } };

/** Reads the paused run's three files, then a.txt: only a.txt is in the copy. */
const script = [
  { tool_calls: [{ name: 'read_file', args: { path: `old/${RUN_ID}.checkpoint.json` } }] },
  { tool_calls: [{ name: 'read_file', args: { path: `old/.${RUN_ID}.checkpoint.json.claimed` } }] },
  { tool_calls: [{ name: 'read_file', args: { path: `old/${RUN_ID}.workspace/secret.txt` } }] },
  { tool_calls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
  { text: 'Read.' },
];

const onlyTheFileRead = [{ name: 'read_file', called: 4, returned: 1, errors: 3 }];

describe("a run's workspace copy leaves paused runs' files out, whatever entry runs it", () => {
  it('library testRun', async () => {
    const request: TestRunRequest = { agent, workspace: folderWithPausedRun(), inputs: { messages: [{ role: 'user', content: 'read' }] }, script };
    const result = await testRun(request);
    expect(result.tools).toEqual(onlyTheFileRead);
    expect(result.verdict_reason).toContain('file_not_found');
  });

  it("a scenario's workspace", async () => {
    const dir = tempDir();
    const ws = folderWithPausedRun();
    writeFileSync(join(dir, 'agent.json'), JSON.stringify(agent));
    writeFileSync(
      join(dir, 'a.scenario.json'),
      JSON.stringify({
        name: 'reads',
        agent: 'agent.json',
        workspace: ws,
        inputs: { messages: [{ role: 'user', content: 'read' }] },
        model: { script },
        expect: { checks: [{ file: { path: `old/${RUN_ID}.checkpoint.json`, exists: false } }, { file: { path: 'a.txt', exists: true } }] },
      }),
    );
    const [scenario] = loadScenarioFile({ file: join(dir, 'a.scenario.json'), root: dir }, { agents: new Map() });
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
    expect(row.test_run?.tools).toEqual(onlyTheFileRead);
    expect(row.checks.map((check) => [check.status, check.reason])).toEqual([
      ['pass', expect.any(String)],
      ['pass', expect.any(String)],
    ]);
  });

  it('MCP test_run (the built CLI)', async () => {
    const client = await connectAgentcheck();
    try {
      const result = await call(client, 'test_run', {
        agent,
        workspace: folderWithPausedRun(),
        inputs: { messages: [{ role: 'user', content: 'read' }] },
        script,
      });
      expect(result.isError, text(result)).toBeFalsy();
      expect((result.structuredContent as { tools: unknown }).tools).toEqual(onlyTheFileRead);
    } finally {
      await client.close();
    }
  });
});
