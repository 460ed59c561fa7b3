import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRunning, waitForPidFile } from '../../helpers/process-state.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { rawAgentcheck } from './mcp-client.js';

describe('agentcheck mcp when the client goes away during a test_run', () => {
  it('waits for the aborted run to end: its command is killed and its workspace copy removed before the server exits', async () => {
    // The server's temp folder is the test's own, so a workspace copy left behind is seen.
    const temp = tempDir();
    const marks = tempDir({
      'agent.yaml':
        'id: sleeper\nagent:\n  name: Sleeper\n  llm: {provider: scripted, model: s}\n  tools:\n    - {name: run_command, builtin: run_command, permission: allow}\n',
      'ws/notes.md': 'kept by the copy\n',
    });
    const pidFile = join(marks, 'pid.txt');
    const server = await rawAgentcheck(marks, { TMPDIR: temp });
    const argv = ['node', '-e', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 600000)`];
    // Never answered: the client leaves while the command runs.
    void server.callTool(
      'test_run',
      JSON.stringify({
        agent: 'agent.yaml',
        workspace: 'ws',
        inputs: { messages: [{ role: 'user', content: 'go' }] },
        script: [{ tool_calls: [{ name: 'run_command', args: { argv } }] }, { text: 'done' }],
      }),
    );
    const pid = await waitForPidFile(pidFile);
    expect(readdirSync(temp).filter((name) => name.startsWith('agentcheck-ws-'))).toHaveLength(1);
    const { exitCode } = await server.close();
    expect(exitCode).toBe(0);
    expect(isRunning(pid)).toBe(false);
    expect(readdirSync(temp)).toEqual([]);
  }, 90_000);
});
