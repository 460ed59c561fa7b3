import type { InvokeInput } from '../invoke.js';
import type { AgentBuild, Delta, ExternalSpec } from '../revision/types.js';
import type { RunProcesses } from '../tools/process/run-processes.js';
import type { AgentOutput } from './agent-output.js';

/** What an external engine needs for one run. */
export interface EngineRun {
  external: ExternalSpec;
  input: InvokeInput;
  /** The deltas applied to the build, in order (sent to an http engine). */
  deltas: readonly Delta[];
  /** The build that runs, and the one before its deltas: an http engine is sent the deltas merged against it. */
  builds: { ran: AgentBuild; base: AgentBuild };
  /** The process environment (agentEnv). */
  env: Record<string, string>;
  /** agentcheck's own environment: what `{{ env.NAME }}` in http headers reads. */
  sourceEnv: Readonly<Record<string, string | undefined>>;
  /** The run's workspace folder: the process's cwd. */
  cwd: string;
  /** The build file's folder: `./` paths in argv are relative to it. */
  buildDir: string;
  timeoutMs: number;
  signal?: AbortSignal;
  processes: RunProcesses;
  /** Awaited after the answer, before a started server is stopped (InvokeOptions.beforeExternalStop). */
  beforeStop?: () => Promise<void>;
}

/** One way of running an external agent (a command, an http endpoint); throws ExternalAgentError. */
export type ExternalEngine = (run: EngineRun) => Promise<AgentOutput>;
