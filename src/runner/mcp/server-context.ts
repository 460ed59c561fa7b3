import type { PausedRunStore } from '../resume/paused-run-store.js';
import type { CallsInFlight } from './calls-in-flight.js';
import type { RunHistory } from './run-history.js';
import type { SentArguments } from './sent-arguments.js';

/** What the MCP server's tools share: where relative paths start, the env runs see, past runs. */
export interface McpServerContext {
  /** Relative paths in arguments (agent, workspace, file, paths) resolve against it. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  history: RunHistory;
  /** Runs test_run left paused, for resume_run. */
  paused: PausedRunStore;
  /** The runs (test_run, resume_run) still going, which the server waits for when it closes. */
  calls: CallsInFlight;
  /** Each tool call's arguments as the client sent them, `__proto__` keys included. */
  sent: SentArguments;
}
