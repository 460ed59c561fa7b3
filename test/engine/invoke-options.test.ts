import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { invoke } from '../../src/engine/invoke.js';
import { resume } from '../../src/engine/resume.js';
import { loadAgentBuild } from '../../src/engine/revision/load-build.js';

const ROOT = join(import.meta.dirname, '../..');
const revision = loadAgentBuild(join(ROOT, 'fixtures/agents/coding-agent.yaml'));
const input = { messages: [{ role: 'user' as const, content: 'go' }] };

async function problemOf(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as Error).message;
}

describe('invoke checks what a library caller gives it', () => {
  it('names every wrong option and message in one ConfigError instead of running with them ignored', async () => {
    const message = await problemOf(
      invoke(
        revision,
        { messages: [{ role: 'bot', content: 'hi' }] } as never,
        {
          workspace: 'ws' as never,
          approvals: { default: 'yes' } as never,
          script: [1] as never,
          scirpt: [] as never,
        } as never,
      ),
    );
    expect(message).toContain('invoke at options.workspace: expected a Workspace such as FolderWorkspace.copyOf(dir) (an object with root()), got string "ws"');
    expect(message).toContain('invoke at options.approvals: default: expected one of "approve" | "deny", got string "yes"');
    expect(message).toContain('invoke at options.script: expected a list of script entries (objects)');
    expect(message).toContain('invoke at options.scirpt: unknown option "scirpt"');
    expect(message).toContain('invoke at input.messages[0]: expected {role: user | assistant | tool, content: string}');
  });

  it('refuses approvals.default "reject" as a scenario and --approvals file do (reject is a per-tool answer only)', async () => {
    const invoked = await problemOf(invoke(revision, input, { script: [{ text: 'done' }], approvals: { default: 'reject' } as never }));
    expect(invoked).toContain('invoke at options.approvals: default: expected one of "approve" | "deny", got string "reject"');
    const resumed = await problemOf(resume(revision, {} as never, undefined, { approvals: { default: 'reject' } as never }));
    expect(resumed).toContain('resume at options.approvals: default: expected one of "approve" | "deny", got string "reject"');
  });

  it('refuses an encodedTags entry that is no tag name (empty, blank, with < or a space), at its index', async () => {
    for (const [tags, index, shown] of [
      [[''], 0, 'string ""'],
      [['system', '  '], 1, 'string "  "'],
      [['system', '<goal>'], 1, 'string "<goal>"'],
    ] as const) {
      const message = await problemOf(invoke(revision, input, { script: [{ text: 'hi' }], encodedTags: [...tags] }));
      expect(message).toBe(`invoke at options.encodedTags[${index}]: expected a tag name such as "system" (no spaces, <, > or /), got ${shown}`);
    }
  });

  it('names resume as the caller of a wrong resume option', async () => {
    const message = await problemOf(resume(revision, {} as never, undefined, { scirpt: [] } as never));
    expect(message).toContain('resume at options.scirpt: unknown option "scirpt"');
    expect(message).not.toContain('invoke at');
  });

  it('still runs with sound options', async () => {
    const turn = await invoke(revision, input, { script: [{ text: 'done' }], approvals: { default: 'approve', tools: { write_file: 'deny' } } });
    expect(turn).toMatchObject({ stop_reason: 'end_turn', output: 'done' });
  });

  it('ends the turn at once when the workspace folder it copies is missing, not in every file tool', async () => {
    const { FolderWorkspace } = await import('../../src/engine/workspace/folder-workspace.js');
    const turn = await invoke(revision, input, {
      script: [{ tool_calls: [{ name: 'list_dir', args: { path: '.' } }] }, { text: 'done' }],
      workspace: FolderWorkspace.copyOf(join(ROOT, 'no-such-folder')),
    });
    expect(turn).toMatchObject({ stop_reason: 'error', error: { type: 'WORKSPACE_NOT_FOUND' } });
    expect(turn.messages.filter((message) => message.role === 'tool')).toEqual([]);
  });
});
