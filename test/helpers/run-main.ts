import { join } from 'node:path';
import { Writable } from 'node:stream';
import { currentV8Flags, restoreV8Flags } from '../../src/config/v8-flags.js';
import { main } from '../../src/runner/commands/main.js';

/** The repository's root, where runCli runs by default. */
const ROOT = join(import.meta.dirname, '../..');

/** What runMain gives back: the fields of runCli's result that the tests read, in the same form. */
export interface MainResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved in the order they were written, as execa's `all`. */
  all: string;
}

const EVENTS = ['SIGINT', 'SIGTERM', 'exit', 'unhandledRejection', 'uncaughtException'] as const;

/**
 * The listeners a command may add for good: the code cache's writer of compiled schemas
 * (src/config/code-cache.ts), added once per process by whichever load compiles one first, to run
 * at the process's exit, as it does in every other test that loads a schema.
 */
const LASTING = new Set(['writePending']);

type Listener = (...args: never[]) => unknown;

/** Process-wide state a command could leave changed: compared before and after each call. */
interface ProcessState {
  listeners: Map<string, Listener[]>;
  exitCode: unknown;
  exit: typeof process.exit;
  cwd: string;
}

function processState(): ProcessState {
  return {
    listeners: new Map(EVENTS.map((event) => [event, process.listeners(event as 'exit') as Listener[]])),
    exitCode: process.exitCode,
    exit: process.exit,
    cwd: process.cwd(),
  };
}

/** What differs between two processState()s, or '' for nothing. */
function changes(before: ProcessState, after: ProcessState): string {
  const said: string[] = [];
  for (const event of EVENTS) {
    const [was, is] = [before.listeners.get(event)!, after.listeners.get(event)!];
    const added = is.filter((listener) => !was.includes(listener) && !LASTING.has(listener.name));
    const removed = was.filter((listener) => !is.includes(listener));
    if (added.length || removed.length) said.push(`${event} listeners: ${added.length} added, ${removed.length} removed`);
  }
  if (after.exitCode !== before.exitCode) said.push(`process.exitCode ${String(before.exitCode)} -> ${String(after.exitCode)}`);
  if (after.exit !== before.exit) said.push('process.exit replaced');
  if (after.cwd !== before.cwd) said.push(`cwd ${before.cwd} -> ${after.cwd}`);
  return said.join('; ');
}

/**
 * Runs the CLI's own entry, main(), in the test process: the same parsing, checks, runs and files
 * as the built CLI without starting a process (about 0.25 s of CPU each on 2 cores). For cases
 * whose point is what a command decides or writes: a refusal, a report, a merge or a compare.
 * What only the process shows stays on runCli, at least one case per command and outcome in a
 * file: the bin's own work (prerendered help, the code cache), output written past main()'s
 * streams (a secret scan of everything the process printed), signals and exit codes as a shell
 * sees them. runMainFull (run-main-full.ts) also fails a whole run that left the environment, a
 * global or an active handle changed; those checks do not suit a case that runs other processes
 * beside the call.
 * `cwd` and `env` are as runCli takes them: cwd defaults to the repository's root, and the
 * environment is the test's, plus CI=true, plus `env` (what main reads through its io; the
 * recursion guard reads the process's own AGENTCHECK_INSIDE_RUN, so its cases stay on runCli).
 * stdout is not a terminal, as under runCli. `agentcheck run` sets a V8 flag
 * (--heap-growing-percent) before it loads the suite: it is put back here. Throws when the call
 * left a signal or exit listener, process.exitCode, process.exit or the folder changed: such a
 * case belongs on the built CLI (runCli).
 */
export async function runMain(args: string[], cwd = ROOT, env: Record<string, string> = {}): Promise<MainResult> {
  const chunks: Array<{ stream: 'stdout' | 'stderr'; text: string }> = [];
  const capture = (stream: 'stdout' | 'stderr') =>
    new Writable({
      write(chunk: string | Buffer, _encoding, done) {
        chunks.push({ stream, text: typeof chunk === 'string' ? chunk : chunk.toString('utf8') });
        done();
      },
    });
  const flags = currentV8Flags();
  const before = processState();
  let exitCode: number;
  let restored = false;
  try {
    exitCode = await main(['node', 'agentcheck', ...args], {
      stdout: capture('stdout'),
      stderr: capture('stderr'),
      cwd,
      env: { ...process.env, CI: 'true', ...env },
      isTTY: false,
    });
  } finally {
    restored = restoreV8Flags(flags);
  }
  if (!restored) throw new Error('runMain: the V8 flags main() set could not be put back (NODE_OPTIONS sets one)');
  const changed = changes(before, processState());
  if (changed) throw new Error(`runMain: main(${JSON.stringify(args)}) left the process changed (${changed}): test this case with runCli`);
  // execa strips one final newline from each output; so does this, so assertions read the same.
  const text = (stream?: 'stdout' | 'stderr') =>
    chunks
      .filter((chunk) => stream === undefined || chunk.stream === stream)
      .map((chunk) => chunk.text)
      .join('')
      .replace(/\r?\n$/, '');
  return { exitCode, stdout: text('stdout'), stderr: text('stderr'), all: text() };
}
