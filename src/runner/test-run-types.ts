import type { Checkpoint } from '../engine/checkpoint/checkpointer.js';
import type { InvokeOptions } from '../engine/invoke.js';
import type { ResolvedConfig } from '../engine/resolve-config.js';
import type { ResumeDecision } from '../engine/resume.js';
import type { DeltaRevision } from '../engine/revision/delta.js';
import type { AgentBuild } from '../engine/revision/types.js';
import type { Turn } from '../engine/turn.js';
import type { Workspace } from '../engine/workspace/workspace.js';
import type { SpanRecord } from '../spans/span-record.js';
import type { Evidence } from '../verdicts/evidence-types.js';
import type { CassetteModeSetting } from './cassettes/cassette-mode-setting.js';
import type { CassetteOutcome } from './cassettes/cassette-session.js';
import type { JudgeJob } from './judge/grader-model.js';
import type { UnmatchedRequest } from './mocks/http-mocks.js';
import type { ResumeRecord } from './resume/run-segments.js';
import type { Deadline } from './suite/timeouts.js';

// The shapes of a test_run: its result (the contract), what a run leaves behind, and how the
// runner's own entries drive one (test-run.ts runs it).

/** The test_run contract (docs/mcp.md, test_run). */
export interface TestRunResult {
  output: string;
  /** Per tool, in first-call order; `servers`: how many calls went to each MCP server's tool of this name (ToolDigest). */
  tools: Array<{ name: string; called: number; returned: number; errors: number; servers?: Record<string, number> }>;
  approvals: Array<{ tool: string; decision: 'approve' | 'deny' | 'pending' }>;
  /** The config the run resolved; null when the run ended before its agent started (MCP_START_FAILED). */
  resolved: ResolvedConfig | null;
  trace_id: string;
  stop_reason: Turn['stop_reason'];
  verdict: 'pass' | 'incomplete' | 'unconfirmed' | 'failed';
  verdict_reason: string;
  /**
   * Set when the run waits at a gate: it paused, or a resume of it ended with an error before
   * anything ran (the same run_id, still paused). The id `resume_run` / `agentcheck resume` continue it with.
   */
  run_id?: string;
}

/** Everything one run leaves behind, for the scenario runner's checks and reports. */
export interface TestRunRecord {
  result: TestRunResult;
  turn: Turn;
  spans: SpanRecord[];
  /** Evidence built from the spans, for checks. */
  evidence: Evidence;
  revision: DeltaRevision;
  /** The run's workspace, still on disk until the caller disposes it. */
  workspace: Workspace;
  /** Requests no scenario mock answered. */
  unmatched: UnmatchedRequest[];
  /** What the run did with its cassette (when it had one). */
  cassette?: CassetteOutcome;
  /** The pauses answered on the way (a scenario's `resume`, or the checkpoint a resume started from). */
  resumes: ResumeRecord[];
  /**
   * The whole run's spans joined into one trace: `spans` plus, for a resume, the runs before the
   * pause (`TestRunControl.earlierSpans`). The verdict and `tools` are scored from them.
   */
  runSpans: SpanRecord[];
  /** Where the run paused, when it ended paused: what a later resume continues from. */
  checkpoint?: Checkpoint;
  /**
   * How many requests each `mocks.http` entry (by index) has answered: where its `responses`
   * sequence stands, kept with a paused run so its resume goes on from there.
   */
  mockServed: Record<string, number>;
}

/** How a run is driven beyond its request: the runner's own entries (scenarios, resume) use it. */
export interface TestRunControl {
  /** Answers the run's successive pauses in order (a scenario's `resume`). */
  answers?: readonly ResumeDecision[];
  /** Continue a paused run from its checkpoint with this answer instead of starting afresh. */
  from?: { checkpoint: Checkpoint; decision: ResumeDecision };
  /** Run in this workspace (a resumed run continues in its paused run's folder); the caller disposes it. */
  workspace?: Workspace;
  /**
   * The spans of the run before `from` (its earlier segments, joined): the resumed run is scored
   * with them, as one run (docs/cli.md, resume).
   */
  earlierSpans?: readonly SpanRecord[];
  /** Where the mocks' `responses` sequences stood when the run paused (TestRunRecord.mockServed). */
  mockServed?: Readonly<Record<string, number>>;
  /** The other builds the request's approvals answer (a scenario's build under each variant): InvokeOptions.approvalsHeldTo. */
  approvalsHeldTo?: readonly AgentBuild[];
  /** Holds a scenario's names to the tools its MCP servers list (listed-names-check.ts): InvokeOptions.onToolsListed. */
  onToolsListed?: InvokeOptions['onToolsListed'];
  /** Where approvals problems found at the servers' start are located: InvokeOptions.approvalsAt. */
  approvalsAt?: InvokeOptions['approvalsAt'];
  /** The scenario's judge checks: graded after the run, their answers put in the evidence. */
  judges?: readonly JudgeJob[];
  /**
   * The caller's time limit (a suite's per-run limit), used instead of the request's `timeout_ms`;
   * the caller disposes it. Past it the turn ends like a test_run's cap: error TIMEOUT, what ran kept.
   */
  deadline?: Deadline;
  /**
   * A folder the copy of `request.workspace` leaves out when it lies inside it: the CLI's runs
   * folder (checkpoints and paused workspaces), which the agent must not see and copies must not nest.
   */
  workspaceLeaveOut?: string;
  /** What set the request's `timeout_ms`, for the timeout message (`--timeout` for the CLI). */
  timeoutSetting?: string;
  /**
   * How the caller sets the cassette mode, for the messages that say to re-record: default the
   * request's `cassette.mode`; `--cassettes` for a suite's scenario runs.
   */
  cassetteSetting?: CassetteModeSetting;
}
