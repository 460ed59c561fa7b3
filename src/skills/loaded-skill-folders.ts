import { AsyncLocalStorage } from 'node:async_hooks';

// Per call, not per process: two validations (or a validation and a run) in one process never
// see each other's folders.
const recording = new AsyncLocalStorage<Set<string>>();

/**
 * Runs `step`, adding to `folders` the folder of every skill loadSkillFolder loads in it (cached
 * or not), wherever it is reached from: `validate` counts the skills it checked this way
 * (docs/cli.md), found under its paths or named by a build's ref, a config's or a scenario's skills.
 */
export function recordLoadedSkillFolders<T>(folders: Set<string>, step: () => T): T {
  return recording.run(folders, step);
}

/** Notes a skill folder that loaded, for the recording step it loads in, if any. */
export function noteLoadedSkillFolder(folder: string): void {
  recording.getStore()?.add(folder);
}
