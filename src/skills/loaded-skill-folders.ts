import { AsyncLocalStorage } from 'node:async_hooks';

// Per call, not per process: two validations (or a validation and a run) in one process never
// see each other's folders.
const recording = new AsyncLocalStorage<Set<string>>();

/**
 * Runs `step`, adding to `folders` the folder of every skill loadSkillFolder loads in it (cached
 * or not), wherever it is reached from: `validate` counts the skills it checked this way
 * (docs/cli.md), found under its paths or named by a build's ref, a config's or a scenario's skills.
 */
export async function recordLoadedSkillFolders<T>(folders: Set<string>, step: () => Promise<T>): Promise<T> {
  active++;
  try {
    return await recording.run(folders, step);
  } finally {
    // Node 20 tracks every promise while a storage is enabled: a long process (the MCP server)
    // that validated once must not pay that in every later run.
    if (--active === 0) recording.disable();
  }
}

let active = 0;

/** Notes a skill folder that loaded, for the recording step it loads in, if any. */
export function noteLoadedSkillFolder(folder: string): void {
  recording.getStore()?.add(folder);
}
