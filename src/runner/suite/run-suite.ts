import { McpServerPool } from '../../engine/mcp/mcp-server-pool.js';
import type { SkillOptions } from '../../engine/skills-delivery.js';
import type { SpanRecord } from '../../spans/span-record.js';
import type { CassetteSettings } from '../cassettes/cassette-settings.js';
import { loadCustomChecks } from '../checks/load-custom-checks.js';
import type { Scenario } from '../scenario/scenario.js';
import { checkKeptRow, checkRunSuiteArguments } from './check-run-suite-options.js';
import { buildReport, type SuiteSelectionRecord } from '../report/build-report.js';
import type { Report, ScenarioRow } from '../report/report.js';
import type { PlannedRun, SuitePlan } from './load-suite.js';
import { guardProcessExit } from '../exit-guard.js';
import { interruptedRow, notRun } from './not-run-rows.js';
import { runPlannedRun } from './run-planned-run.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from './timeouts.js';

export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS };

export interface RunSuiteOptions {
  concurrency: number;
  timeoutMs?: number;
  skills?: SkillOptions;
  env?: Readonly<Record<string, string | undefined>>;
  /** Cassette mode and folder; each run gets its own file. */
  cassettes?: CassetteSettings;
  /** MCP servers shared by the runs; default: a pool of this suite run, stopped when it ends. */
  mcpServers?: McpServerPool;
  /**
   * Aborting stops the suite: runs not finished become `not_run` rows; those in flight keep what
   * they recorded (transcript, usage, test_run, turns, duration_ms).
   */
  signal?: AbortSignal;
  /**
   * Aborted by a second interrupt: runs in flight that have not stopped are given up at once,
   * without waiting out the ABORT_GRACE_MS grace (docs/cli.md).
   */
  hurry?: AbortSignal;
  onRowDone?: (row: ScenarioRow, done: number, total: number) => void;
  onSpans?: (spans: SpanRecord[]) => void;
  /**
   * The caller hands the runs over: each planned run is let go (its entry in the array set to
   * undefined) once its row exists, so a long suite does not keep every scenario's inputs, script
   * and expectations alive until the end. The array must not be used afterwards.
   */
  releaseRuns?: boolean;
  /**
   * What the result keeps of each finished row in its place (default: the row itself), with the
   * row's position in plan order. agentcheck run spills rows to a file and keeps compact ones
   * (docs/report-format.md). Called once per row, not_run rows included; `onRowDone` still gets the row whole.
   * It must return a row (its id, variant, repeat and a status): anything else, or a throw, stops the suite.
   */
  keepRow?: (row: ScenarioRow, index: number) => ScenarioRow;
}

/** Default scenarios run at once: scripted runs are CPU-light, real models are latency-bound. */
export const DEFAULT_CONCURRENCY = 8;

/** Options of a whole suite run: the run options plus what the report records. */
export interface SuiteRunOptions extends Omit<RunSuiteOptions, 'concurrency'> {
  /** Scenarios run at once; default 8. */
  concurrency?: number;
  /** How the suite was chosen, each field over the plan's own (default: the plan's paths, config, grep, tags, shard and folder). */
  selection?: Partial<SuiteSelectionRecord>;
  /** When the run began, for `started_at` and `duration_ms`; the CLI passes its own start so loading counts. */
  startedAt?: Date;
  /**
   * The caller hands the plan over (`agentcheck run`): its scenarios list is emptied and each run
   * let go once its row exists, so memory does not grow with every scenario kept to the end.
   */
  releasePlan?: boolean;
}

/**
 * Runs a loaded suite (loadSuite) and returns its report: the same Report `agentcheck run`
 * writes as report.json. Never throws for a scenario's failure: each run gets its row.
 */
export async function runSuite(plan: SuitePlan, options: SuiteRunOptions = {}): Promise<Report> {
  checkRunSuiteArguments(plan, options);
  // Custom check modules and params are checked before any run, as `agentcheck run` checks them
  // (it has already, so this finds them loaded): one refused is a ConfigError and nothing runs.
  await loadCustomChecks(plannedScenarios(plan.runs));
  const startedAt = options.startedAt ?? new Date();
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (options.releasePlan) plan.scenarios.length = 0;
  // As under `agentcheck run`: a custom check calling process.exit() errors its row, never ends the caller.
  const releaseExit = guardProcessExit();
  let rows: ScenarioRow[];
  try {
    rows = await runPlannedRuns(plan.runs, { ...options, concurrency, releaseRuns: options.releasePlan || options.releaseRuns });
  } finally {
    releaseExit();
  }
  // Each field as the caller gives it, else as the plan was chosen (loadSuite records it), so a
  // report of `loadSuite({paths, grep})` says its paths and grep without repeating them here.
  const selection = options.selection ?? {};
  const own = plan.selection;
  return buildReport({
    selection: {
      paths: selection.paths ?? own?.paths ?? [],
      config: selection.config ?? own?.config ?? null,
      shard: selection.shard ?? own?.shard,
      grep: selection.grep ?? own?.grep,
      tags: selection.tags ?? own?.tags,
      overlay: selection.overlay,
      cwd: selection.cwd ?? own?.cwd ?? process.cwd(),
    },
    variants: plan.variants,
    variantDeltas: plan.variantDeltas,
    repeat: plan.repeat,
    contentHash: plan.contentHash,
    concurrency,
    rows,
    startedAt,
    durationMs: Math.max(0, Date.now() - startedAt.getTime()),
    interrupted: options.signal?.aborted ?? false,
  });
}

/** The scenarios the runs run, each once (a scenario has a run per variant and repeat). */
function plannedScenarios(runs: readonly PlannedRun[]): Scenario[] {
  const scenarios = new Set<Scenario>();
  for (const run of runs) scenarios.add(run.scenario);
  return [...scenarios];
}

/**
 * Runs the planned runs with bounded concurrency. Every run gets exactly one row, in plan
 * order: a crash, a hang past its timeout or an interrupt gives that run a row, and the
 * suite goes on (or, when interrupted, stops scheduling).
 */
export async function runPlannedRuns(runs: readonly PlannedRun[], given: RunSuiteOptions): Promise<ScenarioRow[]> {
  // MCP servers start once per suite run, on first use, and stop when it ends.
  // An interrupt stops them at once (and cuts short their starts).
  const ownMcp = given.mcpServers ? undefined : new McpServerPool(given.signal);
  // The environment is copied once per suite: each run scans it for secrets, and every read of
  // process.env goes through a native getter (35 variables x 1,000 runs cost ~30 ms).
  const options: RunSuiteOptions = { ...given, env: { ...(given.env ?? process.env) }, mcpServers: given.mcpServers ?? ownMcp };
  try {
    return await runAll(runs, options);
  } finally {
    await ownMcp?.close();
  }
}

/**
 * How long (ms), and how many runs started, scripted runs (which settle in microtasks alone) may
 * keep the event loop from turning: then signals, timers and I/O get their turn. A turn costs the
 * runs several ms (V8's deferred work runs then), so turns are rare: a SIGINT is seen within a
 * second, or 512 runs.
 */
const YIELD_AFTER_MS = 1_000;
const YIELD_AFTER_RUNS = 512;

async function runAll(runs: readonly PlannedRun[], options: RunSuiteOptions): Promise<ScenarioRow[]> {
  const rows: Array<ScenarioRow | undefined> = new Array(runs.length);
  let next = 0;
  let done = 0;
  const keepRow = options.keepRow;
  const keep = keepRow
    ? (row: ScenarioRow, index: number) => {
        const kept = keepRow(row, index);
        checkKeptRow(kept, row, index);
        return kept;
      }
    : (row: ScenarioRow) => row;
  // A keepRow that throws or returns no row stops the suite: no run starts after it, those in
  // flight finish, and runSuite throws its error (never a TypeError from the report built later).
  let keepFailed = false;
  let keepFailure: unknown;
  let turned = performance.now();
  let startedSinceTurn = 0;
  // One turn for every worker: the loop turns only once no worker has microtasks left to run.
  let turn: Promise<void> | undefined;
  const worker = async () => {
    while (!options.signal?.aborted && !keepFailed) {
      // Without a turn of the event loop now and then, a SIGINT or SIGTERM (and so the abort)
      // would wait until the whole suite is done.
      if (!turn && (++startedSinceTurn > YIELD_AFTER_RUNS || performance.now() - turned >= YIELD_AFTER_MS)) {
        turn = new Promise((resolve) =>
          setImmediate(() => {
            turn = undefined;
            turned = performance.now();
            startedSinceTurn = 0;
            resolve();
          }),
        );
      }
      if (turn) {
        await turn;
        if (options.signal?.aborted || keepFailed) return;
      }
      const index = next++;
      if (index >= runs.length) return;
      const ran = await runPlannedRun(runs[index], options);
      // In flight when the interrupt came: its commands and model calls were cut short, so
      // whatever it ended with (even a pass, when the script ignores a canceled tool) is not a
      // result; its row is not_run but keeps what the run recorded.
      const interrupted = options.signal?.aborted === true;
      const row = interrupted ? interruptedRow(runs[index], ran) : ran;
      try {
        rows[index] = keep(row, index);
      } catch (error) {
        if (!keepFailed) [keepFailed, keepFailure] = [true, error];
        return;
      }
      if (options.releaseRuns) (runs as Array<PlannedRun | undefined>)[index] = undefined;
      if (interrupted) continue;
      done++;
      options.onRowDone?.(row, done, runs.length);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, runs.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (keepFailed) throw keepFailure;
  // A released run always has its row; a run without one was never let go.
  return runs.map((run, index) => rows[index] ?? keep(notRun(run), index));
}
