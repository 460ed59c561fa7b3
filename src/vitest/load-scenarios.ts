import { statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../config/errors.js';
import { isInsideFolder } from '../config/is-inside-folder.js';
import { describeValue } from '../config/describe-value.js';
import { readError } from '../config/read-error.js';
import { emptyListProblem, emptyTextProblem, refuseEmptyPath } from '../config/empty-values.js';
import { loadSuite, type SuitePlan } from '../runner/suite/load-suite.js';
import { emptySuiteConfig, loadSuiteConfig, type SuiteConfig } from '../runner/suite/suite-config.js';
import { configVariantNames } from '../runner/suite/suite-variants.js';

/** Which scenarios to load, and how, for `scenarios()` and `runScenario()`. */
export interface LoadScenariosOptions {
  /** Folder the glob and paths are relative to (default: process.cwd(), where vitest started; not its --root). */
  cwd?: string;
  /** agentcheck.config.yaml for variants, repeat, skills and the default model (relative to cwd); default none, not the folder's. */
  config?: string;
  /** Only these variants (default: all of the config, `base` included). */
  variants?: readonly string[];
  /** Runs per scenario x variant (default: the config's repeat, else 1). */
  repeat?: number;
  /** Only scenarios whose id or name contains this text or matches it as a regular expression (case-insensitive), as `run --grep`. */
  grep?: string;
  /** Only scenarios with one of these tags. */
  tags?: readonly string[];
}

/** A loaded selection and the config it came with. */
export interface LoadedScenarios {
  plan: SuitePlan;
  config: SuiteConfig;
}

const GLOB_CHARS = /[*?{]/;

/**
 * Loads scenarios as `agentcheck run` does with the suite config given, else with none (the
 * current folder's agentcheck.config.yaml is not read: docs/vitest.md). A pattern without glob characters is a file or a
 * folder (searched for *.scenario.yaml); with them, files are matched under the pattern's fixed
 * leading folders, which are also the root of scenario ids, so `scenarios/**\/*.scenario.yaml`
 * gives the same ids as `agentcheck run scenarios/`; with a suite config, ids start at the
 * config's folder, as `agentcheck run` gives them (docs/vitest.md).
 */
export function loadScenarios(pattern: string, options: LoadScenariosOptions = {}, caller: OptionsCaller = SCENARIOS_CALLER): LoadedScenarios {
  // An empty pattern (an unset variable) would load the whole folder: refused, as `agentcheck run ''` is.
  if (typeof pattern !== 'string' || pattern.trim() === '') {
    throw new ConfigError({ file: caller.name }, `expected a scenario file, folder or glob, got ${describeValue(pattern)}`, 'CONFIG_INVALID');
  }
  refuseEmptyPath(options.cwd, 'a folder path', { file: caller.label, path: 'cwd' });
  refuseEmptyPath(options.config, 'a file path', { file: caller.label, path: 'config' });
  const cwd = resolve(options.cwd ?? process.cwd());
  checkPaths(pattern, cwd, options.cwd !== undefined, caller);
  const base = options.config ? loadSuiteConfig(options.config, cwd) : emptySuiteConfig(cwd);
  checkSelectionOptions(options, base, caller);
  const selection = { variants: options.variants, repeat: options.repeat, grep: options.grep, tags: options.tags };
  if (!GLOB_CHARS.test(pattern)) {
    return { plan: loadSuite({ ...selection, paths: [pattern], config: base }, cwd), config: base };
  }
  const { root, glob } = splitGlob(pattern, cwd);
  // With a suite config, ids start at its folder, as `agentcheck run` gives them (and the cassettes
  // it recorded are found): the glob is read from there when it lies inside it.
  if (options.config && isInsideFolder(base.baseDir, root)) {
    const fromConfig = relative(base.baseDir, root);
    const config: SuiteConfig = { ...base, scenarios: [[...fromConfig.split(sep).filter(Boolean), glob].join('/')] };
    return { plan: loadSuite({ ...selection, paths: [], config }, cwd), config };
  }
  const config: SuiteConfig = { ...base, scenarios: [glob], baseDir: root };
  return { plan: loadSuite({ ...selection, paths: [], config }, cwd), config };
}

/** Who passed the options, as its errors name them: the function, its options, and its key for the variants. */
export interface OptionsCaller {
  name: string;
  label: string;
  variantKey: string;
}

const SCENARIOS_CALLER: OptionsCaller = { name: 'scenarios()', label: 'scenarios() options', variantKey: 'variants' };

/**
 * A `cwd` or a file or folder that is not there, said in the caller's terms: the folder the
 * pattern was read from (often not the one meant: vitest's `--root` is not process.cwd()) and how
 * to give another, never the CLI's advice about flags (docs/vitest.md).
 */
function checkPaths(pattern: string, cwd: string, cwdGiven: boolean, caller: OptionsCaller): void {
  const cwdInfo = cwdGiven ? statOrUndefined(cwd) : undefined;
  if (cwdGiven && !cwdInfo?.isDirectory()) {
    throw new ConfigError(
      { file: caller.label, path: 'cwd' },
      `${cwdInfo ? `${cwd} is a file, not a folder` : `folder not found: ${cwd}`}; expected the folder the pattern and config are relative to`,
      cwdInfo ? 'CONFIG_INVALID' : 'CONFIG_NOT_FOUND',
    );
  }
  if (GLOB_CHARS.test(pattern) || statOrUndefined(resolve(cwd, pattern))) return;
  throw new ConfigError(
    { file: pattern },
    `${caller.name}: path not found${readFrom(pattern, cwdGiven ? cwd : undefined)}; expected a scenario file or a folder of *.scenario.yaml files`,
    'CONFIG_NOT_FOUND',
  );
}

/**
 * Where a relative path or glob was read from, for the message of one that finds nothing:
 * ` (read from /repo, process.cwd(); pass the cwd option to read it from elsewhere)`, or `, the
 * cwd option` when `cwd` was given; '' for an absolute one (docs/vitest.md).
 */
export function readFrom(pattern: string, cwd: string | undefined): string {
  if (isAbsolute(pattern)) return '';
  return cwd === undefined
    ? ` (read from ${process.cwd()}, process.cwd(); pass the cwd option to read it from elsewhere)`
    : ` (read from ${resolve(cwd)}, the cwd option)`;
}

/** What is at `path`, undefined when nothing is (ENOTDIR too: a path under a file); any other failure says why, as `run` does. */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw readError(path, error);
  }
}

/**
 * The variants and repeat asked for, checked against the config and named by the caller's own
 * option (`runScenario() options at variant: unknown variant "lean"`), not a CLI flag or an
 * internal function; an empty variants list, grep or tags (an unset variable) is refused, as
 * `agentcheck run` refuses an empty flag value, never read as "all" or "none".
 */
function checkSelectionOptions(options: LoadScenariosOptions, config: SuiteConfig, caller: OptionsCaller): void {
  const at = (path: string, expected: string) => new ConfigError({ file: caller.label, path }, expected, 'CONFIG_INVALID');
  if (options.variants !== undefined) {
    const known = ['base', ...configVariantNames(config)];
    if (!Array.isArray(options.variants) || !options.variants.length) {
      throw at(caller.variantKey, `expected a non-empty list of variant names (one of: ${known.join(', ')}), got ${describeValue(options.variants)}`);
    }
    for (const name of options.variants) {
      if (!known.includes(name)) throw at(caller.variantKey, `unknown variant ${describeValue(name)}; expected one of: ${known.join(', ')}`);
    }
  }
  const grepProblem = typeof options.grep === 'string' ? emptyTextProblem(options.grep) : null;
  if (grepProblem) throw at('grep', grepProblem);
  const tagsProblem = Array.isArray(options.tags) && options.tags.every((tag) => typeof tag === 'string') ? emptyListProblem(options.tags, 'tags') : null;
  if (tagsProblem) throw at('tags', tagsProblem);
  if (options.repeat !== undefined && !(Number.isSafeInteger(options.repeat) && options.repeat >= 1)) {
    throw at('repeat', `expected a whole number >= 1, got ${describeValue(options.repeat)}`);
  }
}

/** `a/b/**\/*.yaml` -> root `<cwd>/a/b`, glob `**\/*.yaml`: the folders before the first glob character. */
function splitGlob(pattern: string, cwd: string): { root: string; glob: string } {
  const absolute = isAbsolute(pattern) ? pattern : resolve(cwd, pattern);
  const parts = relative(cwd, absolute).split(sep);
  // An absolute pattern outside cwd keeps its own folders; relative() gives it leading `..` parts.
  const fixed: string[] = [];
  while (parts.length > 1 && !GLOB_CHARS.test(parts[0])) fixed.push(parts.shift()!);
  return { root: resolve(cwd, ...fixed), glob: parts.join('/') };
}
