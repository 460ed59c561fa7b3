import { createHash } from 'node:crypto';
import { relative, resolve, sep } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { applyDelta, type DeltaRevision } from '../../engine/revision/delta.js';
import { discoverScenarioFiles, type FoundScenarioFile } from '../scenario/discover.js';
import { loadScenarioFile, type LoadContext } from '../scenario/load-scenario-file.js';
import type { Scenario } from '../scenario/scenario.js';
import { globToRegExp } from './glob.js';
import type { SuiteConfig } from './suite-config.js';
import { isDirectory, walkFiles } from '../files/walk-files.js';

export interface SuiteSelection {
  paths: string[];
  config: SuiteConfig;
  /** `--variant`: run only these (base included by naming it). */
  variants?: string[];
  repeat?: number;
  grep?: string;
  tags?: string[];
  /** 1-based shard index and shard count (`--shard I/N`). */
  shard?: { index: number; total: number };
}

/** One scenario x variant x repeat to run. */
export interface PlannedRun {
  scenario: Scenario;
  variant: string;
  revision: DeltaRevision;
  repeat: number;
}

export interface SuitePlan {
  scenarios: Scenario[];
  /**
   * Content hash of every selected scenario before sharding (ids, builds, deltas, inputs,
   * scripts, expectations): shards of one suite share it, shards of different suites do not.
   */
  contentHash: string;
  variants: string[];
  repeat: number;
  runs: PlannedRun[];
}

/**
 * Loads and validates every scenario and variant before anything runs, so invalid input
 * stops the suite with a located error (exit 2) and nothing half-runs.
 */
export function loadSuite(selection: SuiteSelection, cwd = process.cwd()): SuitePlan {
  const { config } = selection;
  const files = selection.paths.length ? discoverScenarioFiles(selection.paths, cwd) : configFiles(config, cwd);
  const context: LoadContext = { agents: new Map(), suiteModel: config.model, suiteGrader: config.judge?.model, variants: config.variants };
  let scenarios = files.flatMap((found) => loadScenarioFile(found, context));

  if (selection.grep) {
    const needle = selection.grep.toLowerCase();
    scenarios = scenarios.filter((s) => s.id.toLowerCase().includes(needle) || s.name.toLowerCase().includes(needle));
  }
  if (selection.tags?.length) scenarios = scenarios.filter((s) => s.tags.some((tag) => selection.tags?.includes(tag)));
  const contentHash = suiteContentHash(scenarios, cwd);
  if (selection.shard) {
    const { index, total } = selection.shard;
    // Round-robin over ids in sorted order: deterministic, balanced, every scenario in one shard.
    const ids = [...new Set(scenarios.map((s) => s.id))].sort();
    const mine = new Set(ids.filter((_id, position) => position % total === index - 1));
    scenarios = scenarios.filter((s) => mine.has(s.id));
  }

  const variants = selectVariants(config, selection.variants);
  const repeat = selection.repeat ?? config.repeat ?? 1;
  const variantRevisions = new Map<DeltaRevision, Map<string, DeltaRevision>>();
  const runs: PlannedRun[] = [];
  for (const scenario of scenarios) {
    for (const variant of variants) {
      const revision = variantRevision(scenario.revision, variant, config, variantRevisions);
      for (let r = 0; r < repeat; r++) runs.push({ scenario, variant, revision, repeat: r });
    }
  }
  return { scenarios, contentHash, variants, repeat, runs };
}

function selectVariants(config: SuiteConfig, wanted: string[] | undefined): string[] {
  const all = ['base', ...Object.keys(config.variants)];
  if (!wanted?.length) return all;
  for (const name of wanted) {
    if (!all.includes(name)) {
      throw new ConfigError({ file: config.file ?? '--variant' }, `unknown variant "${name}"; expected one of: ${all.join(', ')}`, 'CONFIG_INVALID');
    }
  }
  return all.filter((name) => wanted.includes(name));
}

function variantRevision(
  revision: DeltaRevision,
  variant: string,
  config: SuiteConfig,
  cache: Map<DeltaRevision, Map<string, DeltaRevision>>,
): DeltaRevision {
  if (variant === 'base') return revision;
  let byVariant = cache.get(revision);
  if (!byVariant) cache.set(revision, (byVariant = new Map()));
  let applied = byVariant.get(variant);
  if (!applied) {
    const source = config.variantSources.get(variant);
    applied = applyDelta(revision, config.variants[variant], source ? source.doc.view(source.path) : `variant ${variant}`);
    byVariant.set(variant, applied);
  }
  return applied;
}

/**
 * Scenario files named by the config's `scenarios` entries, else every scenario file under its
 * folder. An entry is a glob, a folder or a file, relative to the config's folder (`../` and
 * absolute paths work); a glob is walked from its literal leading folders.
 */
function configFiles(config: SuiteConfig, cwd: string): FoundScenarioFile[] {
  if (!config.scenarios?.length) return discoverScenarioFiles([config.file ? config.baseDir : cwd], cwd);
  const found = new Map<string, FoundScenarioFile>();
  for (const entry of config.scenarios) {
    const parts = entry.split('/');
    const firstGlob = parts.findIndex((part) => /[*?{]/.test(part));
    if (firstGlob < 0) {
      // No wildcard: a folder (its scenario files) or one file.
      for (const file of discoverScenarioFiles([resolve(config.baseDir, entry)], cwd)) found.set(file.file, { file: file.file, root: config.baseDir });
      continue;
    }
    const base = resolve(config.baseDir, parts.slice(0, firstGlob).join('/') || '.');
    const pattern = globToRegExp(parts.slice(firstGlob).join('/'));
    // A glob whose literal folder does not exist matches nothing.
    for (const file of isDirectory(base) ? walkFiles(base) : []) {
      if (pattern.test(relative(base, file).split(sep).join('/'))) found.set(file, { file, root: config.baseDir });
    }
  }
  return [...found.values()].sort((a, b) => a.file.localeCompare(b.file));
}

/** One sha256 over what decides each scenario's rows; JSON.stringify keeps it cheap for 10,000 scenarios. */
function suiteContentHash(scenarios: readonly Scenario[], cwd: string): string {
  const hash = createHash('sha256');
  for (const s of [...scenarios].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    // Paths relative to the run folder: shards may run in checkouts at different places.
    const workspace = s.workspace ? relative(cwd, s.workspace).split(sep).join('/') : null;
    hash.update(JSON.stringify([s.id, s.revision.hash, s.revision.deltaHash, s.inputs, s.script ?? null, s.expect, s.approvals ?? null, s.mocks ?? null, workspace]));
    hash.update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}
