import { createHash } from 'node:crypto';
import { relative, resolve, sep } from 'node:path';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import { touchesLlm } from '../../engine/revision/delta-touches-llm.js';
import type { FoundScenarioFile } from '../scenario/discover.js';
import type { LoadContext, VariantSubject } from '../scenario/load-context.js';
import { loadScenarioFile } from '../scenario/load-scenario-file.js';
import type { Scenario } from '../scenario/scenario.js';
import { grepMatcher } from './grep-matcher.js';
import { emptySuiteConfig, type SuiteConfig } from './suite-config.js';
import { checkSuiteSelection } from './check-suite-selection.js';
import { LIBRARY_NAMES, type SelectionNames } from './selection-names.js';
import { assertFolderArgument } from '../../config/path-argument.js';
import type { SuiteSelectionRecord } from '../report/build-report.js';
import { suiteScenarioFiles } from './suite-scenario-files.js';
import { passedOverConfigHint } from './passed-over-config.js';
import { relativeBuild, selectVariants, variantRevision, type VariantCache } from './suite-variants.js';
import { compareCodeUnits } from '../../config/code-unit-order.js';

// validate reaches it through this module, which it loads lazily.
export { noScenarioFileProblem, suiteScenarioFiles } from './suite-scenario-files.js';

export interface SuiteSelection {
  paths: readonly string[];
  /** Scenario files already found (with the roots their ids are relative to), instead of `paths`. */
  files?: FoundScenarioFile[];
  /** The suite config; default: none (as `agentcheck run PATHS` without agentcheck.config.yaml). */
  config?: SuiteConfig;
  /** `--overlay`: skill folders (relative to cwd) added to the config's `skills.overlay`; they decide whether load_skill is offered. */
  overlay?: readonly string[];
  /** `--variant`: run only these (base included by naming it). */
  variants?: readonly string[];
  repeat?: number;
  /** Text an id or name contains, or a regular expression it matches (case-insensitive; grep-matcher.ts). */
  grep?: string;
  tags?: readonly string[];
  /** Run only these scenario x variant pairs (`--only-failed`): scenario id -> variant names. */
  only?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * A scenario id as reports show it (secrets redacted), for `only`'s ids read from a report: a
   * scenario whose name holds a secret's value is found under its redacted id too.
   */
  shownId?: (id: string) => string;
  /** 1-based shard index and shard count (`--shard I/N`). */
  shard?: { index: number; total: number };
  /** `--max-runs`: the most runs a suite may plan (default DEFAULT_MAX_RUNS). */
  maxRuns?: number;
  /**
   * False: check the suite (scenarios, variants applied to their builds) without planning its runs
   * (`agentcheck validate`: the run count is `run`'s limit, and a large repeat allocates nothing).
   */
  planRuns?: boolean;
  /**
   * Build/variant pairs already reported as not applying, shared across calls (`agentcheck
   * validate` loads each scenario file on its own): each pair is said once, not per scenario.
   */
  variantFailures?: Set<string>;
  /**
   * Where variants that do not apply are put instead of thrown (`agentcheck validate`): they are
   * problems of the suite config, so the scenario file is still loaded and counted as valid.
   */
  variantProblems?: ConfigError[];
  /**
   * Where the agent build files the scenario files loaded without a problem are put (`agentcheck
   * validate`: the builds a scenario file checked count as valid builds in its summary).
   */
  loadedBuilds?: Set<string>;
}

/** The most runs (scenarios x variants x repeats) a suite plans unless `--max-runs` says otherwise. */
export const DEFAULT_MAX_RUNS = 1_000_000;

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
  /** The delta each selected variant other than `base` applies, as the suite config gives it. */
  variantDeltas?: Record<string, unknown>;
  repeat: number;
  runs: PlannedRun[];
  /** How this plan was chosen, as runSuite records it in report.suite unless its `selection` says otherwise. */
  selection?: Omit<SuiteSelectionRecord, 'overlay'>;
}

/**
 * Loads and validates every scenario and variant before anything runs, so invalid input
 * stops the suite with a located error (exit 2) and nothing half-runs. `names` says how errors
 * name the selection's fields: loadSuite's own for a library caller, the flags for the CLI.
 */
export function loadSuite(given: SuiteSelection, cwdGiven = process.cwd(), names: SelectionNames = LIBRARY_NAMES): SuitePlan {
  checkSuiteSelection(given);
  assertFolderArgument(cwdGiven, 'loadSuite', 'cwd', 'the paths and config');
  // Absolute from here on: a relative cwd resolved against itself again (the config's folder, a
  // path's root) would name another folder (docs/report-format.md, loadSuite).
  const cwd = resolve(cwdGiven);
  // Without a config the suite runs as `agentcheck run PATHS` with no agentcheck.config.yaml.
  const config = given.config ?? emptySuiteConfig(cwd);
  const selection = { ...given, config };
  const files = suiteScenarioFiles(selection, cwd, undefined, names.pathHint);
  const rootOf = new Map(files.map((found) => [found.file, found.root]));
  const source = config.source;
  // Every scenario whose build loaded: the variants are checked against the builds of those not loaded too.
  const subjects: VariantSubject[] = [];
  const context: LoadContext = {
    agents: new Map(),
    suiteModel: config.model,
    suiteModelAt: source
      ? (path, expected, build) => source.error(['model', ...path], build ? `for the build ${relativeBuild(config, build)}: ${expected}` : expected)
      : undefined,
    suiteGrader: config.judge?.model,
    suiteGraderAt: source ? (expected) => source.error(['judge', 'model'], expected) : undefined,
    suiteGraderInvalid: config.judgeInvalid,
    suiteGraderGap: config.judgeGap,
    passedOverConfigHint: (scenarioFile, what) => passedOverConfigHint(scenarioFile, rootOf.get(scenarioFile) ?? cwd, config.file, cwd, what),
    variants: config.variants,
    skills: { ...config.skills, overlay: [...config.skills.overlay, ...(selection.overlay ?? []).map((folder) => resolve(cwd, folder))] },
    overlayFlag: names.overlayFlag,
    skillsInvalid: config.skillsInvalid,
    subjects,
  };
  // Every file's problems in one pass, as validate prints them (docs/cli.md); a build shared by
  // several files is reported once.
  const problems: ConfigError[] = [];
  let scenarios = files.flatMap((found) => {
    let loaded: Scenario[] = [];
    collectConfigErrors(problems, () => {
      loaded = loadScenarioFile(found, context);
    });
    return loaded;
  });
  // context.agents holds each build that loaded, also for a scenario file with problems of its own.
  for (const file of context.agents.keys()) selection.loadedBuilds?.add(file);
  const loadedIds = new Set(scenarios.map((scenario) => scenario.id));

  const only = onlyPairs(selection);
  scenarios = selectScenarios(scenarios, selection);
  const contentHash = suiteContentHash(scenarios, cwd);
  // Before sharding, so every shard of one --only-failed run records the same variants.
  const onlyVariants = only && new Set(scenarios.flatMap((s) => [...(only(s.id) ?? [])]));
  if (selection.shard) {
    const { index, total } = selection.shard;
    // Round-robin over ids in sorted order: deterministic, balanced, every scenario in one shard.
    const ids = [...new Set(scenarios.map((s) => s.id))].sort();
    const mine = new Set(ids.filter((_id, position) => position % total === index - 1));
    scenarios = scenarios.filter((s) => mine.has(s.id));
  }

  let variants: string[] = [];
  collectConfigErrors(problems, () => (variants = selectVariants(config, selection.variants, names, cwd)));
  // --only-failed: the variants that have a pair to rerun, not every variant of the config (report.suite.variants).
  if (onlyVariants) variants = variants.filter((name) => onlyVariants.has(name));
  const repeat = selection.repeat ?? config.repeat ?? 1;
  // With problems in the files nothing runs: the variants are still checked, the runs not planned.
  const planRuns = selection.planRuns !== false && !problems.length;
  if (planRuns) checkRunCount(scenarios.length, variants.length, repeat, selection, config, names);
  const variantRevisions: VariantCache = { applied: new Map(), failed: selection.variantFailures ?? new Set() };
  const runs: PlannedRun[] = [];
  const variantProblems: ConfigError[] = [];
  const applyVariants = (scenario: VariantSubject, planned: (variant: string, revision: DeltaRevision) => void) => {
    for (const variant of variants) {
      if (only && !only(scenario.id)?.has(variant)) continue;
      // Its llm is the override's, which did not apply: not what such a variant would meet.
      if (scenario.beforeModel && variant !== 'base' && touchesLlm(config.variants[variant])) continue;
      let revision: DeltaRevision | null = null;
      collectConfigErrors(variantProblems, () => {
        revision = variantRevision(scenario, variant, config, variantRevisions);
      });
      if (revision) planned(variant, revision);
    }
  };
  // Every scenario's build under every variant is tried, so one pass names each that fails.
  for (const scenario of scenarios) {
    applyVariants(scenario, (variant, revision) => {
      if (planRuns) for (let r = 0; r < repeat; r++) runs.push({ scenario, variant, revision, repeat: r });
    });
  }
  // Also the build of a scenario not loaded, for its own problems or its file's: those do not hide
  // the variants' (one pass).
  const unloaded = subjects.filter((subject) => !loadedIds.has(subject.id));
  for (const subject of selectScenarios(unloaded, selection)) applyVariants(subject, () => {});
  if (selection.variantProblems) selection.variantProblems.push(...variantProblems);
  else problems.push(...variantProblems);
  throwConfigErrors(problems);
  const variantDeltas = Object.fromEntries(variants.filter((name) => name !== 'base').map((name) => [name, config.variants[name]]));
  // What the report records of the selection (runSuite): the plan's own, so a library caller
  // need not repeat its paths, grep and tags for report.suite and its fingerprint.
  const chosen = { paths: [...given.paths], config: config.file, shard: given.shard ?? null, grep: given.grep ?? null, tags: given.tags, cwd };
  return { scenarios, contentHash, variants, variantDeltas, repeat, runs, selection: chosen };
}

/** The variants `--only-failed` names for a scenario id (under the id itself or as reports show it), or undefined without --only-failed. */
function onlyPairs(selection: SuiteSelection): ((id: string) => ReadonlySet<string> | undefined) | undefined {
  const { only, shownId } = selection;
  if (!only) return undefined;
  return (id) => only.get(id) ?? (shownId ? only.get(shownId(id)) : undefined);
}

/** The scenarios `--grep`, `--only-failed` and `--tag` select. */
function selectScenarios<T extends VariantSubject>(subjects: T[], selection: SuiteSelection): T[] {
  let selected = subjects;
  if (selection.grep) {
    const matches = grepMatcher(selection.grep);
    selected = selected.filter((s) => matches(s.id) || matches(s.name));
  }
  const only = onlyPairs(selection);
  if (only) selected = selected.filter((s) => only(s.id) !== undefined);
  if (selection.tags?.length) selected = selected.filter((s) => s.tags.some((tag) => selection.tags?.includes(tag)));
  return selected;
}

/** Text handed to the hash at once: each update is a call into native code, two per scenario cost more than the hashing. */
const HASH_BATCH_CHARS = 64 * 1024;

/** One sha256 over what decides each scenario's rows; JSON.stringify keeps it cheap for 10,000 scenarios. */
function suiteContentHash(scenarios: readonly Scenario[], cwd: string): string {
  const hash = createHash('sha256');
  let pending = '';
  for (const s of [...scenarios].sort((a, b) => compareCodeUnits(a.id, b.id))) {
    // Paths relative to the run folder: shards may run in checkouts at different places.
    const workspace = s.workspace ? relative(cwd, s.workspace).split(sep).join('/') : null;
    pending += `${JSON.stringify([s.id, s.revision.hash, s.revision.deltaHash, s.inputs, s.script ?? null, s.expect, s.approvals ?? null, s.mocks ?? null, workspace])}\n`;
    if (pending.length >= HASH_BATCH_CHARS) {
      hash.update(pending);
      pending = '';
    }
  }
  hash.update(pending);
  return hash.digest('hex').slice(0, 16);
}

/** Refuses a plan too large to hold (`repeat: 100000000`) before a single run is allocated. */
function checkRunCount(scenarios: number, variants: number, repeat: number, selection: SuiteSelection, config: SuiteConfig, names: SelectionNames): void {
  const max = selection.maxRuns ?? DEFAULT_MAX_RUNS;
  const planned = scenarios * variants * repeat;
  if (planned <= max) return;
  const count = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  // What can be lowered, and the limit: "lower repeat" only where repeat is above 1.
  const advice = [repeat > 1 ? 'lower repeat' : '', variants > 1 ? 'run fewer variants' : '', 'select fewer scenarios'].filter(Boolean);
  const expected = `the suite plans ${count(planned, 'run')} (${count(scenarios, 'scenario')} x ${count(variants, 'variant')} x ${count(repeat, 'repeat')}), more than the limit of ${max.toLocaleString('en-US')}; ${advice.join(', ')}, or raise the limit with ${names.name('maxRuns')}`;
  // Said where the repeat was set (given, else the config's key), else at the limit.
  if (selection.repeat === undefined && config.repeat !== undefined && config.source) throw config.source.error(['repeat'], expected, 'TOO_MANY_RUNS');
  throw new ConfigError(names.at(selection.repeat !== undefined ? 'repeat' : 'maxRuns'), expected, 'TOO_MANY_RUNS');
}
