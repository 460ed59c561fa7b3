import { dirname, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { RealFileSet } from '../files/real-file-set.js';
import { realPathOf } from '../files/walk-files.js';
import { loadAgentBuild } from '../../engine/revision/load-build.js';
import { loadSkillFolder } from '../../skills/load-skill-folder.js';
import { recordLoadedSkillFolders } from '../../skills/loaded-skill-folders.js';
import type { FoundScenarioFile } from '../scenario/discover.js';
import type * as LoadSuite from '../suite/load-suite.js';
import { emptySuiteConfig, folderConfig, loadSuiteConfig, type SuiteConfig } from '../suite/suite-config.js';
import { suiteConfigIn } from '../suite/suite-config-file.js';
import { checkOverlayFolders } from '../suite/overlay-folders.js';
import type { SelectionNames } from '../suite/selection-names.js';
import { emptyFoldersProblem, noScenariosMessage, shownFolder, skippedScenarioNote } from '../scenario/skipped-scenario-files.js';
import { collect, detect, namedKind } from './collect-files.js';
import { addProblems, check, countSkills, finishReport, toProblem, toProblems, type FileKind, type ValidationReport } from './validation-report.js';

/** What `agentcheck validate` recognises, for the message when it finds none of it. */
const KNOWN_FILES = 'agent builds, *.scenario(s).yaml, SKILL.md, agentcheck.config.yaml';

/**
 * Checks agent builds (with their flows, plans, chains, skill refs and MCP servers), scenario
 * files (with the builds they use, their checks, and the suite's variants applied to exactly
 * those builds), skills and suite configs, without running anything; every problem of a file is
 * reported (a file may have several). A suite config found under the paths is checked with its
 * own suite (the scenario files its `scenarios` name, under its variants) unless --config is
 * given: then it is checked as a file, and the scenario files take --config. --config with no paths
 * checks that suite, as `run --config` runs it; with paths, their scenario files take the
 * config's model and variants, as `run --config PATHS` does. A path that does not exist is a
 * problem like the others (the other paths are still checked); a --config that is invalid throws
 * a ConfigError before anything is checked; paths holding no agentcheck file at all throw one
 * after (`run` on them would find nothing either). `overlay` (`--overlay`) adds skill folders to
 * every scenario's runs, as run's does: each must be a skill folder (a ConfigError thrown before
 * anything is checked, as for --config). `names` says how advice names the flags (docs/cli.md).
 */
export async function validateFiles(paths: readonly string[], options: ValidateOptions, cwd: string, names?: SelectionNames): Promise<ValidationReport> {
  const skills = new Set<string>();
  return countSkills(await recordLoadedSkillFolders(skills, () => checkFiles(paths, options, cwd, names)), skills);
}

/** What `agentcheck validate` takes besides its paths: --config and --overlay. */
export interface ValidateOptions {
  config?: string;
  /** Skill folders relative to `cwd`, added after the config's `skills.overlay`. */
  overlay?: readonly string[];
}

/** validateFiles, but for the skill count. */
async function checkFiles(paths: readonly string[], options: ValidateOptions, cwd: string, names?: SelectionNames): Promise<ValidationReport> {
  // Checked first, as run checks them: a bad folder would otherwise be met by every scenario.
  checkOverlayFolders(options.overlay ?? [], cwd);
  // --config was validated above: it counts once, also when the paths hold it too.
  const configPath = options.config ? resolve(cwd, options.config) : undefined;
  // A config's problems that leave its suite checkable are reported beside the suite's (one pass).
  const kept: ConfigError[] = [];
  const config = options.config ? loadSuiteConfig(options.config, cwd, { keep: kept }) : emptySuiteConfig(cwd);
  const report: ValidationReport = { counts: { scenario: 0, agent: 0, skill: 0, config: 0 }, scenarios: 0, problems: [] };
  /** A config with the problems it kept reported. */
  const keptConfig = (file: string): SuiteConfig => {
    const keep: ConfigError[] = [];
    const suite = loadSuiteConfig(file, cwd, { keep });
    addProblems(
      report,
      keep.map((error) => toProblem(error, file)),
    );
    return suite;
  };
  addProblems(
    report,
    kept.map((error) => toProblem(error, configPath ?? cwd)),
  );
  // Suite configs checked; one with a problem (a variant that does not apply, globs that match
  // nothing) is not counted as valid at the end.
  const configs = new Set<string>();
  // Agent builds that loaded, named or used by a scenario file: each is counted once, by real path.
  const loadedBuilds = new Set<string>();
  if (configPath) configs.add(configPath);
  // Ids (in messages) are relative to the root `run` would use: the suite's folder, or the path given.
  const variantFailures = new Set<string>();
  // A variant that does not apply is a problem of the config (located there), not of the scenario
  // file, which still counts as valid: else the first file to meet it dropped out of the count.
  const checkScenarioFile = (suites: typeof LoadSuite, found: FoundScenarioFile, suite: SuiteConfig) => {
    const variantProblems: ConfigError[] = [];
    const load = (config: SuiteConfig) =>
      suites.loadSuite(
        { paths: [], files: [found], config, overlay: options.overlay, planRuns: false, variantFailures, variantProblems, loadedBuilds },
        cwd,
        names,
      ).scenarios.length;
    try {
      report.scenarios += load(suite);
    } catch (error) {
      // Problems all located in the config (its `model` does not fit this file's builds, its
      // `judge.model` lacks what a judge check needs) are the config's, as a variant that does not
      // apply is: the file is checked, and counted, without the part at fault.
      const problems = toProblems(error, found.file);
      const source = suite.source;
      if (!source || problems.some((problem) => problem.file !== source.file)) throw error;
      const atFault = (key: string) => problems.some((problem) => problem.path === key || problem.path?.startsWith(`${key}.`));
      const without: SuiteConfig = { ...suite };
      if (atFault('model')) without.model = undefined;
      if (atFault('judge')) {
        without.judge = undefined;
        without.judgeInvalid = true;
        // What the grader lacks was said with it: the file is checked as if the config had no judge.
        without.judgeGap = undefined;
      }
      if (without.model === suite.model && without.judgeInvalid === suite.judgeInvalid && without.judgeGap === suite.judgeGap) throw error;
      addProblems(report, problems);
      report.scenarios += load(without);
    } finally {
      // Also beside the file's own problems: the variants were checked against its builds all the same.
      addProblems(
        report,
        variantProblems.map((error) => toProblem(error, found.file)),
      );
    }
  };
  // The suite loader (scenarios, checks, datasets) loads only when there are scenarios or suites
  // to check: validating an agent build alone starts faster.
  let loaded: typeof LoadSuite | undefined;
  const suiteLoader = async () => (loaded ??= await import('../suite/load-suite.js'));
  // A config whose `scenarios` globs match no file is a problem of the config (run would find nothing).
  const suiteFiles = (suites: typeof LoadSuite, suite: SuiteConfig): FoundScenarioFile[] | null => {
    // An entry's problem (a path not there, a glob matching nothing beside others) is the config's,
    // said beside the problems of the files the other entries name, which are checked all the same.
    const entryProblems: ConfigError[] = [];
    const found = suites.suiteScenarioFiles({ paths: [], config: suite }, cwd, entryProblems);
    addProblems(
      report,
      entryProblems.map((error) => toProblem(error, suite.source?.file ?? error.file)),
    );
    if (found.length || !suite.source || entryProblems.length) return found;
    if (!suite.scenarios?.length) {
      // No globs: run searched the config's folder and found nothing to run.
      const message = noScenariosMessage([shownFolder(suite.baseDir, cwd)], cwd, 'validate');
      addProblems(report, [toProblem(new ConfigError({ file: suite.source.file }, message, 'CONFIG_NOT_FOUND'), suite.source.file)]);
      return null;
    }
    addProblems(report, [toProblem(suites.noScenarioFileProblem(suite.source), suite.source.file)]);
    return null;
  };
  if (options.config && !paths.length) {
    const suites = await suiteLoader();
    const found = suiteFiles(suites, config);
    for (const file of found ?? []) check(report, file.file, 'scenario', () => checkScenarioFile(suites, file, config));
    return finishReport(report, configs, loadedBuilds, cwd);
  }

  const given = paths.length ? paths : ['.'];
  // A path that does not exist is one problem among the others, not a reason to check nothing.
  const { files, missing, folders } = collect(given, cwd);
  addProblems(report, missing);
  // Files under the paths that are agentcheck files (valid or not): none means a wrong path, not "ok".
  let found = 0;
  // The folders given that hold one: beside them, a folder that holds none is refused, as run refuses it.
  const holding = new Set<string>();
  const counted = (folder: string | undefined) => {
    found++;
    if (folder !== undefined) holding.add(folder);
  };
  // Suite configs first: the scenario files of their suites are checked with them, once.
  // By real path: a suite reached through a link names its files under another path than the walk.
  const inSuite = new RealFileSet();
  const suiteConfigs = new RealFileSet();
  if (configPath) suiteConfigs.add(configPath);
  // Each suite config found, as it loaded (by real path), null when it did not (its `scenarios` or
  // the file as a whole has a problem): loose scenario files may take it below.
  const loadedSuites = new Map<string, SuiteConfig | null>();
  for (const { file, kind, folder } of files) {
    if (kind !== 'config' || !suiteConfigs.add(file)) continue;
    counted(folder);
    // Two configs in one folder: run refuses the folder's config, whichever it would read, so
    // neither counts as valid (the problem is said at one of them).
    let alone = true;
    try {
      suiteConfigIn(dirname(file));
    } catch (error) {
      addProblems(report, toProblems(error, file));
      alone = false;
    }
    let suite: SuiteConfig;
    try {
      suite = keptConfig(file);
    } catch (error) {
      addProblems(report, toProblems(error, file));
      loadedSuites.set(realPathOf(file), null);
      continue;
    }
    loadedSuites.set(realPathOf(file), suite);
    if (alone) configs.add(file);
    // With --config, `run --config FILE PATHS` runs the scenario files under the paths with FILE's
    // model and variants, whatever config they sit beside: so are they checked (below).
    if (options.config) continue;
    const suites = await suiteLoader();
    const scenarioFiles = suiteFiles(suites, suite);
    for (const found of scenarioFiles ?? []) {
      if (!inSuite.add(found.file)) continue;
      check(report, found.file, 'scenario', () => checkScenarioFile(suites, found, suite));
    }
  }
  // Scenario files outside any suite found under the paths take the config `run PATHS` would
  // read: --config, else the one folder given's own (`run DIR` reads DIR's: its files are never
  // checked under the current folder's, which is then passed over, not counted), else the current
  // folder's (loaded when first needed). One found under the paths is not read twice; when it did
  // not load, they are checked with no config, beside its problems (one pass).
  let looseConfig: SuiteConfig | undefined = options.config ? config : undefined;
  const configForLooseFiles = (): SuiteConfig => {
    if (looseConfig) return looseConfig;
    looseConfig = config;
    let runConfig: string | undefined;
    try {
      runConfig = folderConfig(given, cwd) ?? suiteConfigIn(cwd);
      if (runConfig === undefined) return looseConfig;
      const found = loadedSuites.get(realPathOf(runConfig));
      if (found !== undefined) return (looseConfig = found ?? config);
      looseConfig = keptConfig(runConfig);
      configs.add(runConfig);
    } catch (error) {
      addProblems(report, toProblems(error, runConfig ?? cwd));
    }
    return looseConfig;
  };
  for (const { file, kind, named, folder } of files) {
    if (file === configPath) {
      counted(folder);
      continue;
    }
    if (kind === 'config') continue;
    if (inSuite.has(file)) {
      if (folder !== undefined) holding.add(folder);
      continue;
    }
    let detected: FileKind | null;
    try {
      detected = kind ?? (named ? namedKind(file) : detect(file));
    } catch (error) {
      counted(folder);
      addProblems(report, toProblems(error, file));
      continue;
    }
    if (!detected) continue;
    counted(folder);
    const suites = detected === 'scenario' ? await suiteLoader() : undefined;
    check(report, file, detected, () => {
      if (suites) {
        // Found as `run` finds it, so its id (in messages) has the root `run` gives it.
        const suite = configForLooseFiles();
        checkScenarioFile(suites, suites.suiteScenarioFiles({ paths: [file], config: suite }, cwd)[0], suite);
      } else if (detected === 'agent') {
        loadAgentBuild(file);
        loadedBuilds.add(file);
      } else if (detected === 'skill') loadSkillFolder(resolve(file, '..'));
    });
  }
  const empty = folders.filter((folder) => !holding.has(folder));
  if (found && empty.length) addProblems(report, [toProblem(emptyFoldersProblem(empty, cwd, 'validate'), empty[0])]);
  if (!found && !missing.length) {
    const shown = given.join(', ');
    throw new ConfigError(
      { file: shown },
      `no agentcheck files found under ${shown} (${KNOWN_FILES})${skippedScenarioNote(given, cwd, 'validate')}`,
      'CONFIG_NOT_FOUND',
    );
  }
  return finishReport(report, configs, loadedBuilds, cwd);
}
