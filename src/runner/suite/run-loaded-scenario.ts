import { describeValue } from '../../config/describe-value.js';
import { ConfigError, throwConfigErrors } from '../../config/errors.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import type { ScenarioRow } from '../report/report.js';
import type { Scenario } from '../scenario/scenario.js';
import { expect, fieldProblems, isObject, RUN_SUITE_OPTIONS, wholeNumber, type Check } from './check-run-suite-options.js';
import { interruptedRow, notRun } from './not-run-rows.js';
import { runPlannedRun } from './run-planned-run.js';
import type { RunSuiteOptions } from './run-suite.js';

/** Options of runLoadedScenario (docs/report-format.md, runLoadedScenario): the planned run's variant, revision and repeat, and runSuite's options that apply to one run. */
export interface RunLoadedScenarioOptions extends Pick<RunSuiteOptions, 'timeoutMs' | 'skills' | 'env' | 'cassettes' | 'mcpServers' | 'signal' | 'onSpans'> {
  /** The variant's name, recorded in the row (a planned run's `variant`). */
  variant: string;
  /** The scenario's revision with the variant's delta applied (a planned run's `revision`). */
  revision: DeltaRevision;
  /** The repeat index, from 0, recorded in the row (a planned run's `repeat`). */
  repeat: number;
}

const FILE = 'runLoadedScenario options';
const REQUIRED = ['variant', 'revision', 'repeat'];
const SHARED = ['timeoutMs', 'skills', 'env', 'cassettes', 'mcpServers', 'signal', 'onSpans'] as const;

/** What each option must be: the planned run's fields, and runSuite's own checks of the options they share. */
const OPTIONS: Record<string, Check> = {
  variant: expect('the variant\'s name (a planned run\'s variant, e.g. "base")', (value) => typeof value === 'string' && value !== ''),
  revision: expect(
    "the revision to run (a planned run's revision: the scenario's with the variant's delta applied)",
    (value) => isObject(value) && isObject(value.build),
  ),
  repeat: expect('the repeat index, a whole number >= 0', wholeNumber(0, Number.MAX_SAFE_INTEGER)),
  ...Object.fromEntries(SHARED.map((key) => [key, RUN_SUITE_OPTIONS[key]])),
};

/** A scenario as loadSuite loads it: what the run reads first. */
const isLoadedScenario = (value: unknown) => isObject(value) && typeof value.id === 'string' && isObject(value.expect) && Array.isArray(value.expect.checks);

/**
 * Runs one scenario loadSuite loaded (a planned run's scenario, variant, revision and repeat) as
 * runSuite runs it: a `skip` scenario gets its skipped row, the run is held to the scenario's
 * `timeout_ms`, else `timeoutMs`, else 60 s (a TIMEOUT row past it). Wrong arguments are a
 * ConfigError naming each; past them it never throws: whatever the run does, it gets its row.
 */
export async function runLoadedScenario(scenario: Scenario, options: RunLoadedScenarioOptions): Promise<ScenarioRow> {
  checkRunLoadedScenarioArguments(scenario, options);
  const { variant, revision, repeat, ...runOptions } = options;
  const run = { scenario, variant, revision, repeat };
  // As runSuite: not started once aborted, and a run the abort cut short is not_run, keeping what it recorded.
  if (options.signal?.aborted) return notRun(run);
  const ran = await runPlannedRun(run, runOptions);
  return options.signal?.aborted ? interruptedRow(run, ran) : ran;
}

/** Every wrong argument as a ConfigError naming it, before anything runs, never a TypeError from inside the run or a key ignored. */
function checkRunLoadedScenarioArguments(scenario: unknown, options: unknown): void {
  const problems: ConfigError[] = [];
  if (!isLoadedScenario(scenario)) {
    problems.push(
      new ConfigError(
        { file: 'runLoadedScenario', path: 'scenario' },
        `expected a scenario loadSuite loaded (a planned run's scenario: loadSuite(selection).runs[i].scenario), got ${describeValue(scenario)}`,
      ),
    );
  }
  if (!isObject(options)) {
    problems.push(
      new ConfigError(
        { file: 'runLoadedScenario', path: 'options' },
        `expected the options {variant, revision, repeat, ...} (a planned run's variant, revision and repeat), got ${describeValue(options)}`,
      ),
    );
  } else {
    problems.push(...fieldProblems(options, OPTIONS, '', FILE, REQUIRED));
  }
  throwConfigErrors(problems);
}
