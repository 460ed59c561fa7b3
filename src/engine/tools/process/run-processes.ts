import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * The variable every process a run starts carries (and passes on to its children), so the run
 * can find them at its end even after they left their process group (`setsid`, `nohup` + `&`).
 */
export const RUN_TAG_VARIABLE = 'AGENTCHECK_RUN_TAG';

/** Grace period between SIGTERM and SIGKILL for processes that ignore SIGTERM. */
export const FORCE_KILL_AFTER_MS = 2_000;

/**
 * How long output is still read after a process exited: long enough for what it wrote to drain
 * on a busy machine, short next to a child that escaped its group and keeps the pipe open.
 */
export const PIPE_GRACE_MS = 2_000;

/** A process a run left behind and that was killed at its end. */
export interface LeftoverProcess {
  pid: number;
  /** Its command line (arguments joined by spaces), cut at 200 characters. */
  command: string;
}

/**
 * The processes one run started: each command's process group plus every process carrying the
 * run's tag. `reap` ends whatever of them is still alive when the run ends (docs/security.md).
 */
export class RunProcesses {
  /** The value of RUN_TAG_VARIABLE in this run's processes. */
  readonly tag = randomUUID();
  private readonly groups = new Set<number>();

  /** Records a process group started by this run (its leader's pid). */
  track(pgid: number): void {
    this.groups.add(pgid);
  }

  /** Whether the run started any process. */
  get started(): boolean {
    return this.groups.size > 0;
  }

  /**
   * Kills every process of the run still alive (SIGTERM, SIGKILL after the grace period) and
   * says which. Finds them by process group and, on Linux, by the run's tag in /proc/<pid>/environ.
   */
  async reap(graceMs = FORCE_KILL_AFTER_MS): Promise<LeftoverProcess[]> {
    if (!this.started) return [];
    const found = await this.findAlive();
    if (!found.length) return [];
    for (const { pid } of found) signal(pid, 'SIGTERM');
    for (const pgid of this.groups) signal(-pgid, 'SIGTERM');
    await waitUntilGone(
      found.map((entry) => entry.pid),
      graceMs,
    );
    for (const { pid } of found) signal(pid, 'SIGKILL');
    for (const pgid of this.groups) signal(-pgid, 'SIGKILL');
    return found;
  }

  private async findAlive(): Promise<LeftoverProcess[]> {
    let entries: string[];
    try {
      entries = await readdir('/proc');
    } catch {
      // No /proc (macOS): the process groups are all we can reach.
      return [...this.groups].filter((pgid) => signal(-pgid, 0)).map((pgid) => ({ pid: pgid, command: `process group ${pgid}` }));
    }
    const marker = `${RUN_TAG_VARIABLE}=${this.tag}`;
    const found: LeftoverProcess[] = [];
    await Promise.all(
      entries
        .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
        .map(async (name) => {
          const pid = Number(name);
          const [environ, stat] = await Promise.all([readProc(pid, 'environ'), readProc(pid, 'stat')]);
          const ours = environ?.split('\0').includes(marker) || (stat !== undefined && this.groups.has(groupOf(stat)));
          if (!ours || isDeadProcessStat(stat)) return;
          const cmdline = (await readProc(pid, 'cmdline')) ?? '';
          found.push({ pid, command: cmdline.split('\0').filter(Boolean).join(' ').slice(0, 200) });
        }),
    );
    return found.sort((a, b) => a.pid - b.pid);
  }
}

/**
 * Ends a process group (its leader's pid) as a whole (docs/security.md, Process trees): SIGTERM,
 * then SIGKILL once the grace period is over if any of it is left. Resolves when the group is gone
 * or was sent SIGKILL. Its timers are unref'd unless `hold` is set, so a caller that does not wait
 * for it never keeps the harness alive; one that waits (`hold`) is sure the SIGKILL is sent.
 */
export async function endProcessGroup(pgid: number, options: { hold?: boolean } = {}): Promise<void> {
  if (!signal(-pgid, 'SIGTERM')) return;
  const deadline = Date.now() + FORCE_KILL_AFTER_MS;
  const members = new Set<number>();
  while (Date.now() < deadline && (await groupAlive(pgid, members))) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 50);
      if (!options.hold) timer.unref();
    });
  }
  signal(-pgid, 'SIGKILL');
}

/**
 * Whether any process of the group is alive; a zombie or an exiting process (isDeadProcessStat)
 * does not count. `members` keeps the live members the last scan of /proc found: while one of them
 * still lives, only its stat is read. A process that ignores SIGTERM is polled for the whole grace
 * period, and reading every process's stat each time cost about 0.6 s of CPU on a busy machine.
 */
async function groupAlive(pgid: number, members: Set<number>): Promise<boolean> {
  if (!signal(-pgid, 0)) return false;
  for (const pid of members) {
    const stat = await readProc(pid, 'stat');
    if (stat !== undefined && groupOf(stat) === pgid && !isDeadProcessStat(stat)) return true;
    members.delete(pid);
  }
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return true; // No /proc (macOS): the signal is all there is to go by.
  }
  const pids = entries.filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = await Promise.all(pids.map((pid) => readProc(pid, 'stat')));
  stats.forEach((stat, index) => {
    if (stat !== undefined && groupOf(stat) === pgid && !isDeadProcessStat(stat)) members.add(pids[index]!);
  });
  return members.size > 0;
}

/**
 * The signals the harness sends a process or group (0: only tests for existence). Its own names,
 * not NodeJS.Signals: the package's published declarations use no Node types (docs/vitest.md).
 */
export type ProcessSignal = 'SIGTERM' | 'SIGKILL' | 0;

/** Sends a signal (0: only tests for existence); false when there is no such process. */
export function signal(pid: number, name: ProcessSignal): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

async function readProc(pid: number, file: string): Promise<string | undefined> {
  try {
    return await readFile(`/proc/${pid}/${file}`, 'latin1');
  } catch {
    return undefined; // gone meanwhile, or not ours
  }
}

/** Field 5 of /proc/<pid>/stat (after the parenthesised command, which may hold spaces). */
function groupOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/** The kernel's flag of a task that has begun to exit (PF_EXITING, field 9 of /proc/<pid>/stat). */
const PF_EXITING = 0x4;

/**
 * Whether a /proc/<pid>/stat line is of a process that is dead for our purpose: a zombie (its
 * parent has not reaped it yet), a dead task, or one already exiting (its memory released, not yet
 * a zombie: a killed process passes through this on a busy machine, and was counted as left behind).
 */
export function isDeadProcessStat(stat: string | undefined): boolean {
  if (stat === undefined) return false;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0] ?? '';
  return state === 'Z' || state === 'X' || state === 'x' || (Number(fields[6]) & PF_EXITING) !== 0;
}

async function waitUntilGone(pids: number[], graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some((pid) => signal(pid, 0) && !deadSync(pid))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function deadSync(pid: number): boolean {
  // A zombie or an exiting process still answers signal 0; it is dead for our purpose.
  try {
    return isDeadProcessStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}
