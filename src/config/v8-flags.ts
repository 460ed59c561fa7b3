import { createRequire } from 'node:module';

/**
 * The V8 flags agentcheck sets while it runs, and how each is put back. V8 refuses code cache
 * data made under other flags than those in force when the script is compiled, so the code cache
 * (code-cache.ts) notes the flags when it compiles a script and puts them back that way before it
 * makes that script's entry (docs/cli.md, Schema cache).
 */
const FLAGS = {
  heapGrowingPercent: { name: 'heap-growing-percent', reset: '--heap-growing-percent=0' },
  regexpLinearFallback: {
    name: 'enable-experimental-regexp-engine-on-excessive-backtracks',
    reset: '--no-enable-experimental-regexp-engine-on-excessive-backtracks',
  },
};

/** The flags of FLAGS set so far: name to the setting given. Absent names have V8's defaults. */
export type V8FlagSettings = Readonly<Record<string, string>>;

// Process-wide rather than module state: the CLI launcher and the CLI script each bundle this module.
const SET = Symbol.for('agentcheck.v8FlagSettings');
const settings = (): Record<string, string> => ((globalThis as Record<symbol, Record<string, string>>)[SET] ??= {});

// node:v8 is loaded only where a flag is set: most commands never set one.
const v8 = () => createRequire(import.meta.url)('node:v8') as typeof import('node:v8');

function setFlag(name: string, setting: string): void {
  settings()[name] = setting;
  v8().setFlagsFromString(setting);
}

/** Sets V8's heap growing factor to 1 + percent/100 for the rest of the process. */
export function setHeapGrowingPercent(percent: number): void {
  setFlag(FLAGS.heapGrowingPercent.name, `--heap-growing-percent=${percent}`);
}

/**
 * Keeps the bytecode of every compiled function for the rest of the process. V8 otherwise drops
 * the bytecode of functions that have not run for a few garbage collections, the script's own
 * top level first (it runs once, at start); the code cache entry a long process writes at exit
 * then lacks it, and every later start compiles the whole top level again (about 40 ms for the
 * CLI). It is set before the first compile: V8 refuses cache data made under other flags.
 */
export function keepBytecode(): void {
  setFlag('flush-bytecode', '--no-flush-bytecode');
}

/** Lets V8 switch a regex that backtracks excessively to its linear-time engine, for the rest of the process. */
export function enableRegexpLinearFallback(): void {
  setFlag(FLAGS.regexpLinearFallback.name, `--${FLAGS.regexpLinearFallback.name}`);
}

/**
 * Runs `make` (compiling a script with code cache data, or making that data) with V8's checksum of
 * code cache data switched on: V8 otherwise checks nothing of the data beyond its header, and
 * deserializing damaged data crashes the process. Data made this way is only accepted the same
 * way, so every compile and every entry of the code cache goes through here.
 */
export function withCodeCacheChecksum<T>(make: () => T): T {
  const { setFlagsFromString } = v8();
  setFlagsFromString('--verify-snapshot-checksum');
  try {
    return make();
  } finally {
    setFlagsFromString('--no-verify-snapshot-checksum');
  }
}

/** The flags set so far, for restoreV8Flags. */
export function currentV8Flags(): V8FlagSettings {
  return { ...settings() };
}

/**
 * Puts the flags above back to how they were when `earlier` was taken. Returns false, changing
 * nothing, when the command line or NODE_OPTIONS set one of them: the process did not start with
 * V8's defaults, so what they were at start is not known.
 */
export function restoreV8Flags(earlier: V8FlagSettings): boolean {
  const now = settings();
  const changed = Object.values(FLAGS).filter((flag) => now[flag.name] !== earlier[flag.name]);
  if (changed.length === 0) return true;
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (Object.values(FLAGS).some((flag) => given.includes(flag.name))) return false;
  for (const flag of changed) {
    const setting = earlier[flag.name];
    if (setting === undefined) delete now[flag.name];
    else now[flag.name] = setting;
    v8().setFlagsFromString(setting ?? flag.reset);
  }
  return true;
}
