import { relative, sep } from 'node:path';
import { quoteCapped, shownName, shownNames } from '../../config/cap-text.js';
import { displayPath } from '../files/display-path.js';
import { documentLocator } from '../../config/assert-format.js';
import { ConfigError, ConfigErrors, throwConfigErrors } from '../../config/errors.js';
import { applyDelta, deltaSchema, type DeltaRevision } from '../../engine/revision/delta.js';
import { deltaOwnProblems } from '../../engine/revision/delta-own-problems.js';
import type { VariantSubject } from '../scenario/load-context.js';
import type { SuiteConfig } from './suite-config.js';
import { CLI_NAMES, type SelectionNames } from './selection-names.js';

/**
 * The config's variant names in the order written: `config.variants` is a plain object, which
 * puts integer-like names (`2`, `10`) before the others, so the order comes from variantSources.
 */
export function configVariantNames(config: SuiteConfig): string[] {
  const names = Object.keys(config.variants);
  return [...new Set([...[...config.variantSources.keys()].filter((name) => names.includes(name)), ...names])];
}

/**
 * The variants selected (all, `base` first, when none is named). Unknown names are refused
 * together, where they were given (`--variant`, or loadSuite's `variants`), the config file named
 * as where variants are defined: `--variant: unknown variants "fast", "slow"; expected one of:
 * base, lean (agentcheck.config.yaml defines lean)`.
 */
export function selectVariants(config: SuiteConfig, wanted: readonly string[] | undefined, names: SelectionNames = CLI_NAMES, cwd = process.cwd()): string[] {
  const defined = configVariantNames(config);
  const all = ['base', ...defined];
  if (!wanted?.length) return all;
  const leftOut = config.leftOutVariants ?? [];
  // A name the config gave a variant with problems (said at the config) is no unknown name.
  const unknown = [...new Set(wanted)].filter((name) => !all.includes(name) && !leftOut.includes(name));
  if (unknown.length && !config.variantsInvalid) {
    const file = config.file ? displayPath(config.file, cwd) : undefined;
    const note = leftOut.length
      ? ` (${shownNames(leftOut)} left out for the problems said at the config)`
      : file
        ? ` (${shownName(file)} defines ${defined.length ? shownNames(defined) : 'no variants'})`
        : '';
    const what = unknown.length === 1 ? 'variant' : 'variants';
    throw new ConfigError(
      names.at('variants'),
      `unknown ${what} ${unknown.map((name) => quoteCapped(name)).join(', ')}; expected one of: ${shownNames(all)}${note}`,
      'CONFIG_INVALID',
    );
  }
  return all.filter((name) => wanted.includes(name));
}

/** Variant revisions applied so far, by scenario revision, and the build/variant pairs that failed. */
export interface VariantCache {
  applied: Map<DeltaRevision, Map<string, DeltaRevision | null>>;
  /** `build file|revision hash|delta hash|variant`: a variant that does not apply is said once per build. */
  failed: Set<string>;
}

/**
 * The scenario's revision under a variant, applied once per build (the cache holds null for a
 * variant that did not apply). A variant that does not apply is an error naming the variant, the
 * first scenario that met it and its build; other scenarios of the same build are not told again.
 */
export function variantRevision(scenario: VariantSubject, variant: string, config: SuiteConfig, cache: VariantCache): DeltaRevision | null {
  const revision = scenario.revision;
  if (variant === 'base') return revision;
  let byVariant = cache.applied.get(revision);
  if (!byVariant) cache.applied.set(revision, (byVariant = new Map()));
  if (byVariant.has(variant)) return byVariant.get(variant) ?? null;
  byVariant.set(variant, null);
  const failure = `${scenario.agentFile}|${revision.hash}|${revision.deltaHash}|${variant}`;
  if (cache.failed.has(failure)) return null;
  const source = config.variantSources.get(variant);
  try {
    const applied = applyDelta(revision, config.variants[variant], source ? source.doc.view(source.path) : `variant ${variant}`);
    byVariant.set(variant, applied);
    return applied;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    cache.failed.add(failure);
    const build = relativeBuild(config, scenario.agentFile);
    // Its own problems (a `__proto__` key, a path that cannot be parsed) are the config's, said
    // once where it is loaded: only what meeting this build found is added here.
    const own = new Set(
      source ? deltaOwnProblems(config.variants[variant], documentLocator(source.doc, source.path), deltaSchema, true).problems.map(key) : [],
    );
    const met = (error instanceof ConfigErrors ? error.errors : [error]).filter((problem) => !own.has(key(problem)));
    throwConfigErrors(
      met.map(
        (problem) =>
          new ConfigError(
            { file: problem.file, line: problem.line, column: problem.column, path: problem.path },
            `variant "${variant}" does not apply to the build ${build} of scenario "${scenario.id}": ${problem.expected}`,
            problem.code,
          ),
      ),
    );
    return null;
  }
}

/** A problem as compared across places that find it: where it is and what it says. */
function key(problem: ConfigError): string {
  return `${problem.file}:${problem.line}:${problem.column}:${problem.path}:${problem.expected}`;
}

/** A build file as messages name it: relative to the suite's folder. */
export function relativeBuild(config: SuiteConfig, file: string): string {
  return relative(config.baseDir, file).split(sep).join('/') || file;
}
