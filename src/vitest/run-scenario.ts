import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeValue } from '../config/describe-value.js';
import { ConfigError } from '../config/errors.js';
import { loadCustomChecks } from '../runner/checks/load-custom-checks.js';
import { resolveCassetteSettings } from '../runner/cassettes/cassette-settings.js';
import type { ScenarioRow } from '../runner/report/report.js';
import type { PlannedRun } from '../runner/suite/load-suite.js';
import { interruptedRow, notRun } from '../runner/suite/not-run-rows.js';
import { runPlannedRun } from '../runner/suite/run-planned-run.js';
import type { SuiteConfig } from '../runner/suite/suite-config.js';
import type { SpanRecord } from '../spans/span-record.js';
import { checkEntryOptions } from './check-options.js';
import { loadScenarios, readFrom, type LoadScenariosOptions } from './load-scenarios.js';
import { listingRecorder, recordBuild } from './run-build.js';
import { recordTrajectory, trajectoryFromSpans } from './trajectory.js';

/** Options of `runScenario()`: where to load from, and which variant to run. */
export interface RunScenarioOptions extends Pick<LoadScenariosOptions, 'cwd' | 'config'> {
  /** The variant to run (default `base`, the unchanged revision). */
  variant?: string;
  /** Aborts the run (pass vitest's `context.signal`). */
  signal?: AbortSignal;
}

const RUN_SCENARIO_OPTION_KEYS = ['cwd', 'config', 'variant', 'signal'];

/**
 * Loads one scenario file and runs one of its scenarios once (variant `base` unless given),
 * returning its report row; the row works with the agentcheck matchers, arguments included.
 * `name` may be left out when the file holds a single scenario.
 */
export async function runScenario(file: string, name?: string, options: RunScenarioOptions = {}): Promise<ScenarioRow> {
  checkEntryOptions(options, RUN_SCENARIO_OPTION_KEYS, 'runScenario() options');
  if (name !== undefined && typeof name !== 'string') {
    throw new ConfigError({ file: 'runScenario()' }, `expected the name of a scenario as its second argument, got ${describeValue(name)}`);
  }
  const variant = options.variant ?? 'base';
  const { plan, config } = loadScenarios(
    file,
    { cwd: options.cwd, config: options.config, variants: [variant], repeat: 1 },
    { name: 'runScenario()', label: 'runScenario() options', variantKey: 'variant' },
  );
  const names = plan.scenarios.map((scenario) => scenario.name);
  const holds = holder(file, options.cwd);
  // A folder or glob without scenarios is a wrong path, not a missing name: said as such; a glob
  // that matches nothing is a path not found, named with the folder it was read from as one is.
  if (!names.length) {
    const glob = holds === PATTERN_MATCHES;
    throw new ConfigError(
      { file },
      `runScenario(): ${holds} no scenario (*.scenario.yaml, *.scenarios.yaml)${glob ? readFrom(file, options.cwd) : ''}; expected a scenario file`,
      'CONFIG_NOT_FOUND',
    );
  }
  if (name === undefined && names.length !== 1) {
    throw new ConfigError(
      { file },
      `runScenario(): ${holds} ${names.length} scenarios (${names.join(', ')}); pass the name of the one to run: runScenario(file, name)`,
      'CONFIG_INVALID',
    );
  }
  const run = plan.runs.find((candidate) => name === undefined || candidate.scenario.name === name);
  if (!run) throw new ConfigError({ file }, `runScenario(): no scenario named "${name}"; ${holds}: ${names.join(', ')}`, 'CONFIG_INVALID');
  // Its custom check modules and params are checked before anything runs, as `agentcheck run`
  // checks them: refused, they throw like any other invalid input (docs/custom-checks.md).
  await loadCustomChecks([run.scenario]);
  return runPlanned(run, config, options.signal);
}

const PATTERN_MATCHES = 'the pattern matches';

/** `the file holds`, `the folder holds` or `the pattern matches`: what `file` names, for messages. */
function holder(file: string, cwd: string | undefined): string {
  if (/[*?{]/.test(file)) return PATTERN_MATCHES;
  return statSync(resolve(cwd ?? process.cwd(), file), { throwIfNoEntry: false })?.isDirectory() ? 'the folder holds' : 'the file holds';
}

/** Runs one planned scenario x variant x repeat and records its calls for the matchers. */
export async function runPlanned(run: PlannedRun, config: SuiteConfig, signal?: AbortSignal): Promise<ScenarioRow> {
  // As runLoadedScenario and runSuite: a `skip` scenario's row says skipped, a signal already
  // aborted runs nothing (not_run), and a run the abort cut short is not_run, keeping what it recorded.
  if (run.scenario.skip || signal?.aborted) return notRun(run);
  let spans: SpanRecord[] = [];
  // What its servers listed, as the scenario's own names are held to it (argument names included).
  const listing = listingRecorder();
  // As `agentcheck run` runs it: under the scenario's or the config's timeout_ms (a TIMEOUT row past it).
  const ran = await runPlannedRun(run, {
    timeoutMs: config.timeout_ms,
    skills: { forced: config.skills.forced, overlay: config.skills.overlay, delivery: config.skills.delivery },
    // The config's record/replay, as `agentcheck run` uses it: a replay suite makes no live calls here either.
    cassettes: resolveCassetteSettings(undefined, config.cassettes, config.baseDir),
    env: process.env,
    signal,
    onSpans: (collected) => {
      spans = collected;
    },
    onToolsListed: listing.onToolsListed,
  });
  const row = signal?.aborted ? interruptedRow(run, ran) : ran;
  recordTrajectory(trajectoryFromSpans(spans), row, row.test_run);
  recordBuild(run.revision.build, listing.listed(), row, row.test_run);
  return row;
}
