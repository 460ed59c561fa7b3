import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../../src/engine/checkpoint/checkpointer.js';
import type { DeltaRevision } from '../../../src/engine/revision/delta.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import { PausedRunStore, type PausedRun } from '../../../src/runner/resume/paused-run-store.js';

async function pausedRun(): Promise<{ run: PausedRun; dir: string }> {
  const workspace = FolderWorkspace.temp();
  const dir = await workspace.root();
  const run = {
    revision: {} as DeltaRevision,
    request: { agent: 'a.yaml', inputs: { messages: [] } },
    checkpoint: {} as Checkpoint,
    workspace,
    spans: [],
    mockServed: {},
  };
  return { run, dir };
}

describe("PausedRunStore (resume_run's paused runs)", () => {
  it('answers a run once, and removes the workspace of the oldest run beyond its limit', async () => {
    const store = new PausedRunStore(2);
    const first = await pausedRun();
    const second = await pausedRun();
    const third = await pausedRun();
    await store.add('r1', first.run);
    await store.add('r2', second.run);
    await store.add('r3', third.run);
    expect(existsSync(first.dir)).toBe(false);
    expect(store.take('r1')).toBeUndefined();
    expect(store.take('r2')).toBe(second.run);
    expect(store.take('r2')).toBeUndefined();
    await store.disposeAll();
    expect(existsSync(third.dir)).toBe(false);
    await second.run.workspace.dispose();
  });
});
