import { AsyncLocalStorage } from 'node:async_hooks';
import { RunError } from '../config/errors.js';
import { INSIDE_RUN_ENV } from '../engine/inside-run.js';

/** Entered while a caller's own Model runs inside a test_run: a testRun it starts is nested. */
export const insideTestRun = new AsyncLocalStorage<true>();

/**
 * Refuses a test_run started inside another run: in this process (a caller's Model), or in a
 * process a run started for its tools, which carries AGENTCHECK_INSIDE_RUN (docs/mcp.md, The
 * recursion guard). Every surface calls it before it reads any file or argument (MCP test_run and
 * resume_run before their arguments' form too; the CLI after its option parser), so a caller is
 * never told to fix a path first and refused after.
 */
export function refuseInsideRun(): void {
  if (insideTestRun.getStore() || process.env[INSIDE_RUN_ENV]) {
    throw new RunError('RECURSION_GUARD', 'test_run was called from inside a test_run; runs nest at most one level deep');
  }
}
