import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** The pid a test's command wrote to `file`, once it has (polled; the test's timeout ends a wait for a command that never starts). */
export async function waitForPidFile(file: string): Promise<number> {
  while (!existsSync(file) || !readFileSync(file, 'utf8')) await new Promise((done) => setTimeout(done, 50));
  return Number(readFileSync(file, 'utf8'));
}

/** Waits until a command under test has created `file` (polled; the test's timeout ends a wait for one that never does). */
export async function waitForFile(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((done) => setTimeout(done, 50));
}

/** Whether `pid` is a running process; a zombie not yet reaped answers signal 0 but counts as gone. */
export function isRunning(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}

/** Polls until `pid` is gone, with a deadline only a hang reaches: never a check on how long it took. */
export async function waitUntilGone(pid: number): Promise<void> {
  await expect.poll(() => isRunning(pid), { timeout: 120_000, interval: 100 }).toBe(false);
}
