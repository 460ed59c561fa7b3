import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { ConfigError, throwConfigErrors } from '../../config/errors.js';
import { specialFileProblem } from '../../config/special-file.js';
import type { SourceDocument } from '../../config/source.js';
import { discoverScenarioFiles, type FoundScenarioFile, type PathHint } from '../scenario/discover.js';
import { isDirectory, walkFiles } from '../files/walk-files.js';
import { globToRegExp } from './glob.js';
import type { SuiteSelection } from './load-suite.js';
import { emptySuiteConfig, type SuiteConfig } from './suite-config.js';
import { compareCodeUnits } from '../../config/code-unit-order.js';

/**
 * The scenario files a selection names: its paths, else the config's `scenarios` (else its folder).
 * Problems of the config's entries (located at each) are thrown together, or, given `keep`, kept
 * there beside the files the other entries name (validate checks those all the same). A path
 * given that does not exist, or a folder that holds no scenario, gets `pathHint`'s advice.
 */
export function suiteScenarioFiles(
  selection: Pick<SuiteSelection, 'paths' | 'config' | 'files'>,
  cwd = process.cwd(),
  keep?: ConfigError[],
  pathHint?: PathHint,
): FoundScenarioFile[] {
  if (selection.files) return selection.files;
  if (!selection.paths.length) return configFiles(selection.config ?? emptySuiteConfig(cwd), cwd, keep);
  const found = discoverScenarioFiles(selection.paths, cwd, pathHint);
  // With a suite config, ids are relative to its folder whether or not paths are given, so
  // `run` and `run scenarios/` name (and find cassettes for) a scenario alike, unless a path given
  // lies outside it (docs/formats.md): decided by the paths, not by where the files found happen
  // to be, so `run . --config sub/agentcheck.config.yaml` roots ids at `.` whatever `.` holds.
  const base = selection.config?.file ? selection.config.baseDir : undefined;
  if (base && selection.paths.every((path) => isInsideFolder(base, resolve(cwd, path)))) for (const entry of found) entry.root = base;
  return found;
}

/** The config's `scenarios` naming no file at all, said at the key: `run` would find nothing to run. */
export function noScenarioFileProblem(source: SourceDocument): ConfigError {
  return source.error(['scenarios'], 'matches no scenario file (scenario files are named *.scenario.yaml or *.scenarios.yaml); check the globs');
}

/**
 * Scenario files named by the config's `scenarios` entries, else every scenario file under its
 * folder. An entry is a glob, a folder or a file, relative to the config's folder (`../` and
 * absolute paths work); a glob is walked from its literal leading folders.
 */
function configFiles(config: SuiteConfig, cwd: string, keep: ConfigError[] | undefined): FoundScenarioFile[] {
  if (!config.scenarios?.length) return discoverScenarioFiles([config.file ? config.baseDir : cwd], cwd);
  const found = new Map<string, FoundScenarioFile>();
  const empty: number[] = [];
  const problems: ConfigError[] = [];
  const source = config.source;
  config.scenarios.forEach((entry, index) => {
    try {
      if (!addConfigEntry(entry, config, cwd, found)) empty.push(index);
    } catch (error) {
      // A file or folder named without a wildcard that is not there: said at its entry, beside the others'.
      if (!(source && error instanceof ConfigError && error.code === 'CONFIG_NOT_FOUND')) throw error;
      problems.push(source.error(['scenarios', index], entryNotFoundMessage(entry, config.baseDir), 'CONFIG_NOT_FOUND'));
    }
  });
  // One entry that matches nothing beside others that do: a typo that would drop files silently.
  // Beside entries that are not there, one that matches nothing is said too (all in one pass).
  if ((found.size || problems.length) && empty.length && source) {
    const others = found.size ? ', though the other entries do' : '';
    for (const index of empty) {
      problems.push(source.error(['scenarios', index], `matches no scenario file (*.scenario.yaml, *.scenarios.yaml)${others}; check the glob`));
    }
  }
  if (keep) keep.push(...problems);
  else throwConfigErrors(problems);
  return [...found.values()].sort((a, b) => compareCodeUnits(a.file, b.file));
}

/**
 * An entry naming a path that is not there, said as written (it is read from the config's folder,
 * not the current one); where it landed is added only for an entry that climbs out with `..`.
 */
function entryNotFoundMessage(entry: string, baseDir: string): string {
  if (isAbsolute(entry)) return `path not found: ${entry}; expected a scenario file, a folder of scenario files or a glob`;
  const landed = entry.split(/[\\/]/).includes('..') ? ` (${resolve(baseDir, entry)})` : '';
  return `path not found: ${entry}${landed}; expected a scenario file, a folder of scenario files or a glob, relative to the config's folder`;
}

/** Adds the scenario files one `scenarios` entry of the config names (a glob, a folder or a file); returns how many it matched. */
function addConfigEntry(entry: string, config: SuiteConfig, cwd: string, found: Map<string, FoundScenarioFile>): number {
  const parts = entry.split('/');
  const firstGlob = parts.findIndex((part) => /[*?{]/.test(part));
  if (firstGlob < 0) {
    // No wildcard: a folder (its scenario files) or one file.
    const files = discoverScenarioFiles([resolve(config.baseDir, entry)], cwd);
    for (const file of files) found.set(file.file, { file: file.file, root: config.baseDir });
    return files.length;
  }
  const base = resolve(config.baseDir, parts.slice(0, firstGlob).join('/') || '.');
  const pattern = globToRegExp(parts.slice(firstGlob).join('/'));
  let matched = 0;
  // A glob whose literal folder does not exist matches nothing.
  for (const file of isDirectory(base) ? walkFiles(base) : []) {
    if (!pattern.test(relative(base, file).split(sep).join('/'))) continue;
    // As discoverScenarioFiles: a named pipe would block the run in open().
    const special = specialFileProblem(file, 'a scenario file');
    if (special) throw special;
    found.set(file, { file, root: config.baseDir });
    matched++;
  }
  return matched;
}
