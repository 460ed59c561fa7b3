import { existsSync, readFileSync } from 'node:fs';
import { execa } from 'execa';

/** The pid a test's command wrote to `file`, once it has (polled; the test's timeout ends a wait for a command that never starts). */
export async function waitForPidFile(file: string): Promise<number> {
  while (!existsSync(file) || !readFileSync(file, 'utf8')) await new Promise((done) => setTimeout(done, 50));
  return Number(readFileSync(file, 'utf8'));
}

/** Whether `pid` is a running process (a zombie not yet reaped counts as gone). */
export async function isRunning(pid: number): Promise<boolean> {
  const state = await execa('ps', ['-o', 'stat=', '-p', String(pid)], { reject: false });
  return state.stdout.trim() !== '' && !state.stdout.trim().startsWith('Z');
}
