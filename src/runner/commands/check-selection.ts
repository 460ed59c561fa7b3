import { noScenariosMessage, shownFolder } from '../scenario/skipped-scenario-files.js';
import type { SuiteConfig } from '../suite/suite-config.js';
import { loadSuite, type SuitePlan, type SuiteSelection } from '../suite/load-suite.js';
import { CLI_NAMES } from '../suite/selection-names.js';
import { noScenarioFileProblem } from '../suite/suite-scenario-files.js';
import { missingPairs } from '../suite/only-failed.js';
import { reportShownId } from '../secrets/report-shown-id.js';
import { EXIT, type CommandIO } from './cli-io.js';
import type { RunOptions } from './run-command.js';

/** What `agentcheck run` selected, and how. */
export interface Selection {
  plan: SuitePlan;
  /** The paths given to run. */
  paths: string[];
  /** The paths that chose the scenario files: none when a config's globs did. */
  scenarioPaths: string[];
  options: RunOptions;
  config: SuiteConfig;
  only: SuiteSelection['only'];
}

/**
 * Says why a selection is empty, and refuses it (exit 2) unless it is an empty shard (whose
 * empty report still tells `merge` it ran); notes the failed pairs `--only-failed` no longer
 * finds. Null: go on and run.
 */
export function checkSelection({ plan, paths, scenarioPaths, options, config, only }: Selection, io: CommandIO): number | null {
  if (!plan.runs.length && options.shard && suiteHasRuns(paths, options, config, io, only)) {
    // More shards than scenarios: this shard's empty report still tells `agentcheck merge` it ran.
    io.stderr.write(`agentcheck: shard ${options.shard.index}/${options.shard.total} has no scenarios; writing an empty report\n`);
    return null;
  }
  if (!plan.runs.length && only) {
    const filters = [...filterFlags(options), ...(options.variant?.length ? [`--variant ${options.variant.join(',')}`] : [])];
    // The failed scenarios may be here and only the filters leave them out: say so, not "wrong folder".
    const filtered = filters.length > 0 && suiteHasRuns(paths, { ...options, grep: undefined, tag: undefined, variant: undefined }, config, io, only);
    io.stderr.write(
      filtered
        ? `agentcheck: none of the ${only.size} failed scenario(s) of ${options.onlyFailed} matches ${filters.join(' and ')}\n`
        : `agentcheck: none of the ${only.size} failed scenario(s) of ${options.onlyFailed} are among the scenarios loaded here; run from the folder and with the paths of the earlier run\n`,
    );
    return EXIT.invalidInput;
  }
  if (!plan.runs.length) {
    io.stderr.write(`agentcheck: ${noRunsMessage(scenarioPaths, options, config, io.cwd)}\n`);
    return EXIT.invalidInput;
  }
  if (only && !filterFlags(options).length && !options.shard && !options.variant?.length) {
    // Some failed pairs may be gone (a renamed scenario or variant): said, not dropped without a word.
    const gone = missingPairs(only, plan.runs, reportShownId(io.env));
    if (gone.length) {
      const shown = gone.slice(0, 10).join(', ') + (gone.length > 10 ? `, and ${gone.length - 10} more` : '');
      io.stderr.write(
        `agentcheck: ${gone.length} failed scenario x variant pair(s) of ${options.onlyFailed} are not in this suite (renamed or removed?) and do not run: ${shown}\n`,
      );
    }
  }
  return null;
}

/** Whether the whole suite, unsharded, has runs (so an empty shard is a small suite, not a wrong path). */
function suiteHasRuns(paths: string[], options: RunOptions, config: SuiteConfig, io: CommandIO, only: SuiteSelection['only']): boolean {
  return (
    loadSuite(
      {
        paths,
        config,
        variants: options.variant,
        repeat: options.repeat,
        grep: options.grep,
        tags: options.tag,
        only,
        shownId: only && reportShownId(io.env),
        maxRuns: options.maxRuns,
        overlay: options.overlay,
      },
      io.cwd,
      CLI_NAMES,
    ).runs.length > 0
  );
}

/** The --grep and --tag given, as the messages name them. */
function filterFlags(options: RunOptions): string[] {
  return [...(options.grep ? [`--grep "${options.grep}"`] : []), ...(options.tag?.length ? [`--tag ${options.tag.join(',')}`] : [])];
}

/** Why nothing runs: no scenario files at all, or filters (--grep, --tag) that left none of them. */
function noRunsMessage(paths: string[], options: RunOptions, config: SuiteConfig, cwd: string): string {
  const filters = filterFlags(options);
  const found = filters.length
    ? loadSuite({ paths, config, variants: options.variant, repeat: 1, overlay: options.overlay }, cwd, CLI_NAMES).scenarios.length
    : 0;
  if (found) return `none of the ${found} scenario(s) found matches ${filters.join(' and ')}`;
  // The config's globs chose the files: a typo there is the likely cause, so name them where they are.
  if (!paths.length && config.scenarios?.length && config.source) {
    return `no scenarios to run: ${noScenarioFileProblem(config.source).message}`;
  }
  // A skill folder given as a path is most often a second folder meant for --overlay.
  const hint = paths.map((path) => CLI_NAMES.pathHint(path, cwd)).find(Boolean) ?? '';
  return noScenariosMessage(paths.length ? paths : [shownFolder(config.file ? config.baseDir : cwd, cwd)], cwd, 'run') + hint;
}
