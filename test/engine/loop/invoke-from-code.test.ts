import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, FolderWorkspace, invoke, loadAgentBuild } from '../../../src/index.js';
import { tempDir } from '../../helpers/temp-dir.js';

const CODING_AGENT = join(import.meta.dirname, '../../../fixtures/agents/coding-agent.yaml');

describe('invoke from code (docs/engine-loop.md, From code)', () => {
  it('runs a loaded revision in a workspace copied from a folder', async () => {
    const source = tempDir({ 'notes.txt': 'the answer is 42\n' });
    const workspace = FolderWorkspace.copyOf(source);
    const script = [{ tool_calls: [{ name: 'read_file', args: { path: 'notes.txt' } }] }, { text: 'read it' }];
    const turn = await invoke(loadAgentBuild(CODING_AGENT), { messages: [{ role: 'user', content: 'read notes.txt' }] }, { script, workspace });
    await workspace.dispose();
    expect(turn.stop_reason).toBe('end_turn');
    const result = turn.messages.find((message) => message.role === 'tool');
    expect(result && 'content' in result ? result.content : '').toContain('the answer is 42');
  });

  it('refuses a build object where a revision belongs, saying how to make one', async () => {
    const { build } = loadAgentBuild(CODING_AGENT);
    const error = await invoke(build as never, { messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('loadAgentBuild(file) or revisionFromValue(value) makes one');
  });
});
