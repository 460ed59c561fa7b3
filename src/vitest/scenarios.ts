import { ConfigError } from '../config/errors.js';
import { describe, it } from 'vitest';
import { loadCustomChecks } from '../runner/checks/load-custom-checks.js';
import type { PlannedRun } from '../runner/suite/load-suite.js';
import { ABORT_GRACE_MS } from '../runner/suite/timeouts.js';
import { checkEntryOptions } from './check-options.js';
import { loadScenarios, readFrom, type LoadScenariosOptions } from './load-scenarios.js';
import { installMatchers } from './register-matchers.js';
import { runPlanned } from './run-scenario.js';

/** Options of `scenarios()`: the selection of `agentcheck run`, plus how vitest runs the tests. */
export interface ScenariosOptions extends LoadScenariosOptions {
  /** Per-test time limit in ms (all repeats together); default: the scenario's or config's timeout_ms times the repeats plus 5 s, else vitest's testTimeout. */
  timeout?: number;
  /** Run the tests of one file concurrently (`it.concurrent`); runs are kept apart by trace id. */
  concurrent?: boolean;
}

const SCENARIOS_OPTION_KEYS = ['cwd', 'config', 'variants', 'repeat', 'grep', 'tags', 'timeout', 'concurrent'];

/**
 * Defines one vitest test per scenario x variant, grouped by scenario file. Each test runs the
 * scenario (every repeat) and asserts it passed; a failure shows the reason and the trajectory.
 * Call it at the top level of a test file or inside a `describe`. Invalid scenario files throw
 * here, so vitest reports the file with the located error.
 */
export function scenarios(pattern: string, options: ScenariosOptions = {}): void {
  checkEntryOptions(options, SCENARIOS_OPTION_KEYS, 'scenarios() options');
  installMatchers();
  const { plan, config } = loadScenarios(pattern, options);
  // A pattern or filter that selects nothing is a mistake (a misspelt folder): a test file
  // defining no tests would pass silently, so it fails here, as `agentcheck run` exits 2.
  if (!plan.runs.length) {
    const filters = [options.grep === undefined ? '' : `grep ${JSON.stringify(options.grep)}`, options.tags?.length ? `tags ${options.tags.join(',')}` : '']
      .filter(Boolean)
      .join(' and ');
    const found = filters ? loadScenarios(pattern, { ...options, grep: undefined, tags: undefined }).plan.scenarios.length : 0;
    const why = found
      ? `none of its ${found} scenario(s) matches ${filters}`
      : `it matches no scenario file (*.scenario.yaml or *.scenarios.yaml)${readFrom(pattern, options.cwd)}`;
    // A filter that matches nothing is a bad selection; only a pattern that finds no file is "not found".
    throw new ConfigError({ file: pattern }, `scenarios() selects nothing: ${why}`, found ? 'CONFIG_INVALID' : 'CONFIG_NOT_FOUND');
  }
  const groups = new Map<string, Map<string, PlannedRun[]>>();
  for (const run of plan.runs) {
    const fileId = run.scenario.id.slice(0, run.scenario.id.length - run.scenario.name.length - 1);
    let byTest = groups.get(fileId);
    if (!byTest) groups.set(fileId, (byTest = new Map()));
    const title = `${run.scenario.name} [${run.variant}]`;
    const runs = byTest.get(title);
    if (runs) runs.push(run);
    else byTest.set(title, [run]);
  }
  const define = options.concurrent ? it.concurrent : it;
  // Custom check modules and their params are checked before any test is defined, as `agentcheck
  // run` checks them before anything runs: refused, every group of this call fails to collect with
  // the located error and no scenario runs (docs/custom-checks.md). Imported once for all groups,
  // when vitest collects the first (a suite factory may be async; scenarios() itself is not).
  let checking: Promise<void> | undefined;
  const checkCustomChecks = () => (checking ??= loadCustomChecks(plan.scenarios));
  for (const [fileId, tests] of groups) {
    describe(fileId, async () => {
      await checkCustomChecks();
      for (const [title, runs] of tests) {
        const { scenario } = runs[0];
        if (scenario.skip === true) {
          it.skip(title, () => undefined);
          continue;
        }
        if (typeof scenario.skip === 'string') {
          // Skipped from inside, so the reason shows as the skip note and the title stays stable.
          const note = scenario.skip;
          define(title, ({ skip }) => skip(note));
          continue;
        }
        const perRun = scenario.timeout_ms ?? config.timeout_ms;
        // Room for agentcheck's own TIMEOUT row (with its reason and what the run recorded) to
        // arrive before vitest's bare "Test timed out": a run past its limit is given up on within the grace.
        const timeout = options.timeout ?? (perRun === undefined ? undefined : perRun * runs.length + ABORT_GRACE_MS);
        // The test context's expect: concurrent tests must not share assertion state.
        define(
          title,
          async ({ signal, expect: check }) => {
            // Repeats run one after another: the first that fails stops the test with its reason,
            // and says which repeat it was (a row's own label names only the repeats after the first).
            for (const run of runs) {
              const row = await runPlanned(run, config, signal);
              (runs.length > 1 ? check(row, `repeat ${run.repeat} of ${runs.length} (numbered from 0)`) : check(row)).toPass();
            }
          },
          timeout,
        );
      }
    });
  }
}
