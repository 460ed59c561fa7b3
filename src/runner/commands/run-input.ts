import { collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import { resolveCassetteSettings, type CassetteSettings } from '../cassettes/cassette-settings.js';
import { loadCustomChecks } from '../checks/load-custom-checks.js';
import { shardFromEnv } from '../ci/shard-from-env.js';
import { captureContentFlag } from '../../engine/content-capture.js';
import { checkReporterNames, type ReporterName } from '../reporters/index.js';
import { loadSuite, noScenarioFileProblem, suiteScenarioFiles, type SuitePlan } from '../suite/load-suite.js';
import { failedRuns } from '../suite/only-failed.js';
import { reportShownId } from '../secrets/report-shown-id.js';
import { CLI_NAMES } from '../suite/selection-names.js';
import { checkOverlayFolders } from '../suite/overlay-folders.js';
import { folderConfig, loadSuiteConfig, type SuiteConfig } from '../suite/suite-config.js';
import type { CommandIO } from './cli-io.js';
import { notePassedOverConfig } from './passed-over-config.js';
import type { RunOptions } from './run-command.js';

/** What `agentcheck run` loaded and checked before anything runs. */
export interface RunInput {
  plan: SuitePlan;
  config: SuiteConfig;
  /** The paths that chose the scenario files: none when a config's globs did (`run DIR` with its own config). */
  scenarioPaths: string[];
  reporterNames: ReporterName[];
  cassettes: CassetteSettings;
  /** The runs `--only-failed` names. */
  only?: Map<string, Set<string>>;
  /** The options, with the shard CI's environment names when `--shard` names none. */
  options: RunOptions;
}

/**
 * Loads and checks everything `agentcheck run` needs (flags, suite config, scenarios, custom
 * checks) before anything runs, every problem in one pass: throws the ConfigError(s). Null when
 * `--only-failed` names nothing to rerun (said on stderr).
 */
export async function loadRunInput(paths: string[], given: RunOptions, io: CommandIO): Promise<RunInput | null> {
  let options = given;
  let only: Map<string, Set<string>> | undefined;
  if (options.onlyFailed) {
    only = failedRuns(options.onlyFailed, io.cwd);
    if (!only.size) {
      io.stderr.write(`agentcheck: ${options.onlyFailed} has no failed, errored or not-run rows; nothing to rerun\n`);
      return null;
    }
  }
  // A bad switch is invalid input before anything runs, not an error in every row.
  captureContentFlag(io.env);
  checkOverlayFolders(options.overlay ?? [], io.cwd);
  // `run DIR` with DIR/agentcheck.config.yaml runs that suite as its config describes it.
  const ownConfig = options.config ? undefined : folderConfig(paths, io.cwd);
  // The config's problems that leave its suite checkable are said beside the suite's (one pass, as validate).
  const kept: ConfigError[] = [];
  const config = loadSuiteConfig(options.config ?? ownConfig, io.cwd, { cassettes: options.cassettes, keep: kept });
  if (ownConfig) notePassedOverConfig(ownConfig, io);
  // A bad --reporter or cassette setting joins the kept problems, so none of them hides another;
  // the stand-ins below are never used, since the kept problems are thrown before anything runs.
  let reporterNames: ReporterName[] = [];
  collectConfigErrors(kept, () => {
    reporterNames = parseReporters(options.reporter, config.reporters);
  });
  let cassettes: CassetteSettings = { mode: 'off', dir: config.baseDir };
  // The config's own located cassettes.dir problem, when kept, already says what this would.
  if (!kept.some((problem) => problem.path === 'cassettes.dir'))
    collectConfigErrors(kept, () => {
      cassettes = resolveCassetteSettings(options.cassettes, config.cassettes, config.baseDir);
    });
  const scenarioPaths = ownConfig ? [] : paths;
  if (!options.shard) {
    const fromEnv = shardFromEnv(io.env);
    if (fromEnv) {
      options = { ...options, shard: { index: fromEnv.index, total: fromEnv.total } };
      io.stderr.write(`agentcheck: running shard ${fromEnv.index}/${fromEnv.total} (from ${fromEnv.source}; --shard overrides)\n`);
    }
  }
  const selection = {
    paths: scenarioPaths,
    config,
    variants: options.variant,
    repeat: options.repeat,
    grep: options.grep,
    tags: options.tag,
    shard: options.shard,
    overlay: options.overlay,
    only,
    shownId: only && reportShownId(io.env),
    maxRuns: options.maxRuns,
  };
  let plan: SuitePlan;
  try {
    plan = loadSuite(selection, io.cwd, CLI_NAMES);
  } catch (error) {
    collectConfigErrors(kept, () => {
      throw error;
    });
    throwConfigErrors(kept);
    throw error;
  }
  // Globs of the config that name no file at all are said beside its other problems, as validate
  // says them (alone, they are said as there being nothing to run).
  if (
    kept.length &&
    !plan.scenarios.length &&
    config.source &&
    config.scenarios?.length &&
    !scenarioPaths.length &&
    !suiteScenarioFiles({ paths: [], config }, io.cwd).length
  )
    kept.push(noScenarioFileProblem(config.source));
  throwConfigErrors(kept);
  // Custom check modules are imported and checked before anything runs, like the rest of the input.
  await loadCustomChecks(plan.scenarios);
  return { plan, config, scenarioPaths, reporterNames, cassettes, only, options };
}

function parseReporters(flag: string | undefined, fromConfig: ReporterName[] | undefined): ReporterName[] {
  if (flag === undefined) return fromConfig ?? ['table', 'json'];
  // An empty list or item is refused by name, not read as the default.
  const names = flag.split(',').map((name) => name.trim());
  checkReporterNames(names);
  return [...names];
}
