import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isDeadProcessStat } from '../../../../src/engine/tools/process/run-processes.js';

/** A /proc/<pid>/stat line of `command` in `state` with the kernel's task `flags` (fields 1-9, then the rest as Linux writes them). */
const stat = (command: string, state: string, flags: number) =>
  `4242 (${command}) ${state} 1 4242 4242 0 -1 ${flags} 124 0 0 0 0 0 0 0 20 0 1 0 8291175 3133440 408`;

describe('isDeadProcessStat (what a run end counts as left behind)', () => {
  it('counts a zombie, a dead task and a task already exiting (PF_EXITING) as dead, whatever its name holds', () => {
    expect(isDeadProcessStat(stat('sleep', 'Z', 4194308))).toBe(true);
    expect(isDeadProcessStat(stat('sleep', 'X', 4194304))).toBe(true);
    // Killed on a busy machine, a process passes through this: running, its flags saying it exits.
    expect(isDeadProcessStat(stat('sleep', 'R', 4194304 | 0x4))).toBe(true);
    expect(isDeadProcessStat(stat('a) R 1 (odd', 'D', 0x4))).toBe(true);
  });

  it('counts a running or sleeping process as alive, and a missing stat as not known dead', () => {
    expect(isDeadProcessStat(stat('sleep', 'S', 4194304))).toBe(false);
    expect(isDeadProcessStat(stat('a) Z 1 (odd', 'R', 4194560))).toBe(false);
    expect(isDeadProcessStat(undefined)).toBe(false);
    // This very process, read from /proc where there is one.
    let own: string | undefined;
    try {
      own = readFileSync('/proc/self/stat', 'latin1');
    } catch {
      return; // No /proc (macOS).
    }
    expect(isDeadProcessStat(own)).toBe(false);
  });
});
