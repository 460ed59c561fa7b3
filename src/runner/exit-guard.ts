// While scenarios run, process.exit() throws: a custom check calling it would otherwise end the
// process (agentcheck's, or a library caller's) with its code and no rows or report (exit 0 over
// a failing suite). Nested guards (`agentcheck run` around runSuite, two runSuite calls at once)
// share one replacement; the original comes back when the last one is released.
let depth = 0;
let original: typeof process.exit | undefined;

/** What a guarded process.exit() throws; `call` is the call as written, `process.exit(0)`. */
export class ProcessExitRefused extends Error {
  readonly call: string;
  constructor(code: number | string | null | undefined) {
    const call = `process.exit(${code ?? ''})`;
    super(`${call} was called during the run; a custom check may not end the agentcheck process (throw or return a result instead)`);
    // Said as any error is (`Error: process.exit(3) was called ...`), in rows and on stderr.
    this.name = 'Error';
    this.call = call;
  }
}

/** Makes process.exit() throw until the returned function is called (docs/custom-checks.md). */
export function guardProcessExit(): () => void {
  if (depth++ === 0) {
    original = process.exit;
    const refuse = ((code?: number | string | null) => {
      const error = new ProcessExitRefused(code);
      // The stack starts at the caller, so where it was thrown is the check's line, not this guard's.
      Error.captureStackTrace(error, refuse);
      throw error;
    }) as typeof process.exit;
    process.exit = refuse;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--depth === 0 && original) {
      process.exit = original;
      original = undefined;
    }
  };
}
