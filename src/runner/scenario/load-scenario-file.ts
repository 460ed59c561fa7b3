import { basename, dirname, resolve } from 'node:path';
import { closestWord } from '../../config/did-you-mean.js';
import { describeValue } from '../../config/describe-value.js';
import { checkFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, ConfigError, ConfigErrors, throwConfigErrors } from '../../config/errors.js';
import { SourceDocument, type PathSegments } from '../../config/source.js';
import { applyDelta, type DeltaRevision } from '../../engine/revision/delta.js';
import type { AgentBuild, LlmSpec, Revision } from '../../engine/revision/types.js';
import { checkReferences, validateCheck, validateToolName } from '../../verdicts/index.js';
import type { CustomCheckRef } from '../checks/custom-check-ref.js';
import { checkApprovals, EXTERNAL_NO_GATES } from '../../engine/permissions/check-approvals.js';
import { checkScenarioNames } from './check-scenario-names.js';
import { customCheckRefs } from './custom-check-refs.js';
import { findTemplate, loadDataset } from './dataset.js';
import { expandRows, inheritedDefaults, type RawScenario } from './expand-dataset.js';
import { graderModelProblems, judgeJobs, type GraderModel, type JudgeJob } from '../judge/grader-model.js';
import { scenarioFileId, type FoundScenarioFile } from './discover.js';
import { SUITE_CONFIG_FILE } from './scenario-file-name.js';
import { isAgentBuildShape } from './build-shape.js';
import { validateHttpMocks } from '../mocks/validate-mocks.js';
import { scenarioRevision } from './scenario-revision.js';
import { expectedVerdictProblems } from './expected-verdict.js';
import { expectFailureProblems, namedPlaceProblems } from './scenario-field-problems.js';
import { scenarioFileSchema, scenarioSchema, validateScript } from './scenario-schema.js';
import type { Scenario } from './scenario.js';
import type { ScenarioFileSpec, ScenarioSpec } from './scenario-format.generated.js';
import { withKeptProblems } from '../../config/kept-problems.js';

/** Keys only a suite config has (a scenario has none of them). */
const CONFIG_ONLY_KEYS = new Set(['variants', 'repeat', 'concurrency', 'reporters', 'out', 'judge', 'cassettes']);

/** Shared while loading a suite: agent builds are parsed once however many scenarios use them. */
export interface LoadContext {
  agents: Map<string, Revision>;
  /** The build as a DeltaRevision with no delta, shared by the scenarios that change nothing. */
  plain?: Map<Revision, DeltaRevision>;
  /** Suite-level default model (`model` in agentcheck.config.yaml). */
  suiteModel?: Partial<LlmSpec>;
  /**
   * Locates a problem of the suite's `model` (at `model.<path>`) in the config file; `build`, the
   * agent build file, when the problem depends on that build.
   */
  suiteModelAt?: (path: PathSegments, expected: string, build?: string) => ConfigError;
  /** Suite-level default grader of judge checks (`judge.model` in agentcheck.config.yaml). */
  suiteGrader?: GraderModel;
  /** Locates a problem of the suite's `judge.model` in the config file. */
  suiteGraderAt?: (expected: string) => ConfigError;
  /**
   * The suite's variant deltas (`variants` in agentcheck.config.yaml): a tool a variant adds may
   * be answered in a scenario's `approvals.tools`. Without them, only the scenario's own
   * revision counts.
   */
  variants?: Record<string, unknown>;
  /**
   * When given, a scenario that has problems but whose build (with its delta) loaded is put here,
   * so the suite's variants are checked against that build in the same pass.
   */
  unloaded?: VariantSubject[];
}

/**
 * What applying a suite's variants needs of a scenario; `beforeModel` when its revision is the
 * build with its delta only (its model override did not apply), which a variant changing the llm
 * cannot be judged against.
 */
export type VariantSubject = Pick<Scenario, 'id' | 'name' | 'tags' | 'agentFile' | 'revision'> & { beforeModel?: boolean };

/** Loads one scenario file: one scenario, or `scenarios:` with `defaults` (docs/formats.md, Scenario). */
export function loadScenarioFile(found: FoundScenarioFile, context: LoadContext): Scenario[] {
  const doc = SourceDocument.read(found.file, { problems: 'keep' });
  return withKeptProblems(doc, (read) => loadScenarioDocument(read, found, context));
}

function loadScenarioDocument(doc: SourceDocument, found: FoundScenarioFile, context: LoadContext): Scenario[] {
  const value = doc.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw doc.error([], 'expected a scenario (a mapping with name, agent, inputs) or {scenarios: [...], defaults: {...}}');
  }
  const fileId = scenarioFileId(found.file, found.root);
  const raw = value as RawScenario;
  // An agent build given where a scenario is expected (`agentcheck run agents/bot.yaml`): said once, not as five format errors.
  if (isAgentBuildShape(raw)) {
    throw doc.error(
      [],
      'is an agent build (id and agent at the top), not a scenario file: run takes scenario files (*.scenario.yaml, *.scenarios.yaml) or folders of them; to run a build once, use agentcheck test-run --agent FILE',
    );
  }
  // A suite config or a delta named as a path (`agentcheck run agentcheck.config.yaml`): said once,
  // with what takes it, not as a scenario's unknown keys.
  const keys = Object.keys(raw);
  const scenarioLike = keys.some((key) => key === 'name' || key === 'inputs' || key === 'agent' || key === 'scenarios');
  if (SUITE_CONFIG_FILE.test(basename(doc.file)) || (!scenarioLike && keys.some((key) => CONFIG_ONLY_KEYS.has(key)))) {
    throw doc.error([], 'is a suite config, not a scenario file: give it with --config FILE (run and validate read it from there)');
  }
  if (keys.length && keys.every((key) => key === 'set' || key === 'remove')) {
    throw doc.error([], 'is a delta {set, remove}, not a scenario file: a scenario names it in delta:, test-run takes it with --delta FILE');
  }
  if (!('scenarios' in raw)) {
    // `scenario:` or `scenarioes:` holding a list: the list was meant, not one scenario with unknown keys.
    const misspelt = Object.keys(raw).find((key) => Array.isArray(raw[key]) && closestWord(key, ['scenarios']) !== undefined);
    if (misspelt !== undefined) {
      throw doc.error(
        [misspelt],
        `unknown key "${misspelt}" (did you mean "scenarios"?): a file of several scenarios lists them under scenarios`,
        'CONFIG_INVALID',
        true,
      );
    }
    return loadEntry(doc, raw, {}, [], [], fileId, context);
  }

  const file = checkFormat<ScenarioFileSpec>(scenarioFileSchema, raw, (path, expected, atKey) => doc.error(path, expected, 'CONFIG_INVALID', atKey));
  const problems: ConfigError[] = [...file.errors];
  // Without a list, or with defaults that are not a mapping, the scenarios cannot be read.
  if (!file.typed(['scenarios']) || !file.typed(['defaults'])) throwConfigErrors(problems);
  const spec = file.value;
  const defaults: RawScenario = spec.defaults ?? {};
  const names = new Map<string, number>();
  // Every scenario of the file is checked, so one pass reports every problem (a problem of the
  // defaults, met again by each scenario, is reported once).
  const loaded: Scenario[] = [];
  spec.scenarios.forEach((scenario, index) => {
    const at = ['scenarios', index];
    if (!file.valid(at)) return;
    // Names are compared also for a scenario with problems: a duplicate is not left for later.
    let entryNames = writtenName(scenario, defaults);
    collectConfigErrors(problems, () => {
      const entry = loadEntry(doc, scenario, defaults, at, ['defaults'], fileId, context);
      loaded.push(...entry);
      entryNames = entry.map((one) => one.name);
    });
    for (const name of entryNames) {
      const previous = names.get(name);
      if (previous !== undefined)
        problems.push(doc.error([...at, 'name'], `duplicate scenario name "${name}" (also scenarios[${previous}]); names must be unique within a file`));
      else names.set(name, index);
    }
  });
  throwConfigErrors(problems);
  return loaded;
}

/** The name an entry writes (its own or the defaults'), when it has one and no dataset renders it per row. */
function writtenName(own: RawScenario, defaults: RawScenario): string[] {
  if ('dataset' in own || 'dataset' in defaults) return [];
  const name = 'name' in own ? own.name : defaults.name;
  return typeof name === 'string' && name.length > 0 ? [name] : [];
}

/**
 * One entry of a scenario file: one scenario, or one per row of its `dataset` (docs/formats.md,
 * "Datasets"), each rendered with the row's `{{ vars.NAME }}` and then loaded like any scenario.
 */
function loadEntry(
  doc: SourceDocument,
  own: RawScenario,
  defaults: RawScenario,
  at: PathSegments,
  defaultsAt: PathSegments,
  fileId: string,
  context: LoadContext,
): Scenario[] {
  if (!own || typeof own !== 'object' || Array.isArray(own)) throw doc.error(at, 'expected a scenario mapping');
  const ownDataset = 'dataset' in own;
  const dataset = ownDataset ? own.dataset : defaults.dataset;
  if (dataset === undefined) {
    // A default the scenario replaces is not its template (docs/formats.md, Datasets).
    const used = findTemplate(own, at) ?? findTemplate(inheritedDefaults(defaults, own), defaultsAt);
    if (used) throw doc.error(used, 'uses {{ vars.* }}, but the scenario has no dataset; add `dataset: FILE.csv | FILE.jsonl | [rows]` or remove the template');
    return [loadOne(doc, own, defaults, at, defaultsAt, fileId, context)];
  }
  const datasetAt = [...(ownDataset ? at : defaultsAt), 'dataset'];
  const locateDataset: Locator = (path, expected, atKey) => doc.error([...datasetAt, ...path], expected, 'CONFIG_INVALID', atKey);
  const datasetOk = (typeof dataset === 'string' && dataset.length > 0) || (Array.isArray(dataset) && dataset.length > 0);
  if (!datasetOk) {
    const got = Array.isArray(dataset) ? 'an empty list' : describeValue(dataset);
    throw locateDataset([], `expected a .csv or .jsonl file (relative to the scenario file) or a non-empty list of rows, got ${got}`);
  }
  let rows: ReturnType<typeof loadDataset>;
  try {
    rows = loadDataset(dataset, dirname(doc.file), locateDataset);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // The rows are unreadable; the problems that do not depend on them are still said (one pass).
    const others = rowFreeProblems(doc, own, defaults, at, defaultsAt);
    throw others.length ? new ConfigErrors([error, ...others]) : error;
  }
  return expandRows(rows, { doc, own, defaults, at, defaultsAt }, (rendered, renderedDefaults) =>
    loadOne(doc, rendered, renderedDefaults, at, defaultsAt, fileId, context),
  );
}

/** Where a scenario's fields are written: a field's errors point at the scenario, or at the shared defaults it took the field from. */
function scenarioPlace(doc: SourceDocument, own: RawScenario, defaults: RawScenario, at: PathSegments, defaultsAt: PathSegments) {
  const whereOf = (key: unknown): PathSegments => (typeof key === 'string' && !(key in own) && key in defaults ? defaultsAt : at);
  const locate: Locator = (path, expected, atKey) => doc.error([...whereOf(path[0]), ...path], expected, 'CONFIG_INVALID', atKey);
  return { whereOf, locate };
}

/**
 * A scenario's problems that no dataset row can change, for when its rows cannot be read: unknown
 * keys (keys are never rendered) and the problems of check items that hold no template.
 */
function rowFreeProblems(doc: SourceDocument, own: RawScenario, defaults: RawScenario, at: PathSegments, defaultsAt: PathSegments): ConfigError[] {
  const { locate } = scenarioPlace(doc, own, defaults, at, defaultsAt);
  const format = checkFormat<ScenarioSpec>(scenarioSchema, { ...defaults, ...own }, locate);
  const problems = format.errors.filter((problem) => problem.expected.startsWith('unknown key'));
  const checks = format.typed(['expect', 'checks']) ? (format.value.expect?.checks ?? []) : [];
  const checksAt: Locator = (path, expected, atKey) => locate(['expect', 'checks', ...path], expected, atKey);
  checks.forEach((item, index) => {
    if (!JSON.stringify(item).includes('{{')) collectConfigErrors(problems, () => validateCheck(item, index, checksAt));
  });
  return problems;
}

function loadOne(
  doc: SourceDocument,
  own: RawScenario,
  defaults: RawScenario,
  at: PathSegments,
  defaultsAt: PathSegments,
  fileId: string,
  context: LoadContext,
): Scenario {
  if (!own || typeof own !== 'object' || Array.isArray(own)) throw doc.error(at, 'expected a scenario mapping');
  const merged: RawScenario = { ...defaults, ...own };
  const { whereOf, locate } = scenarioPlace(doc, own, defaults, at, defaultsAt);
  // Every problem in one pass: with format problems, the scenario is read only where `format`
  // says it is valid, and what needs the build runs only when the build could be loaded.
  const format = checkFormat<ScenarioSpec>(scenarioSchema, merged, locate);
  const ok = (...path: PathSegments) => format.valid(path);
  const problems: ConfigError[] = [...format.errors];
  const spec = format.value;
  const dir = dirname(doc.file);
  const name = spec.name;
  // A misspelt `agent` key leaves it unset with no error of its own (the typo says it): no build.
  const agentOk = ok('agent') && typeof spec.agent === 'string';
  const agentFile = resolve(dir, agentOk ? spec.agent : '');
  // `model`'s llm keys, whatever its script holds: a script typo does not hide the override's problems.
  const modelOk =
    format.typed(['model']) && Object.keys(spec.model ?? {}).every((key) => key === 'script' || key === 'allow_unknown_tools' || ok('model', key));
  // Beside a build that cannot be loaded (or a delta or model that does not apply), the scenario's
  // own problems are still said: only what needs the build (names, approvals) waits for it.
  const { revision, withDelta } = scenarioRevision(
    spec,
    agentFile,
    { doc, dir, whereOf, locate },
    context,
    { agent: agentOk, delta: ok('delta'), model: modelOk },
    problems,
  );

  const builds = revision ? [revision.build, ...variantBuilds(revision, context)] : [];
  const script = ok('model', 'script') ? spec.model?.script : undefined;
  if (script) collectConfigErrors(problems, () => validateScript(script, (path, expected, atKey) => locate(['model', 'script', ...path], expected, atKey)));
  // Each mock the format check left intact, so a typo in one mock does not hide another's problem.
  const mocks = format.typed(['mocks', 'http']) ? spec.mocks?.http : undefined;
  if (mocks) {
    const mocksAt: Locator = (path, expected, atKey) => locate(['mocks', 'http', ...path], expected, atKey);
    collectConfigErrors(problems, () => validateHttpMocks(mocks, mocksAt, (index) => ok('mocks', 'http', index)));
  }
  const approvals = spec.approvals;
  if (approvals && ok('approvals') && revision) {
    collectConfigErrors(problems, () => checkApprovals(approvals, builds, (path, expected, atKey) => locate(['approvals', ...path], expected, atKey)));
  }
  // An external run never pauses: answers to pauses could only be left unused (docs/external-agents.md).
  if (spec.resume !== undefined && builds.some((build) => build.external)) {
    problems.push(locate(['resume'], `${EXTERNAL_NO_GATES}, so its run never pauses and resume has nothing to answer; remove resume`, true));
  }

  const expect = format.typed(['expect']) ? (spec.expect ?? {}) : {};
  const terminalValid =
    expect.terminal_tool === undefined ||
    (ok('expect', 'terminal_tool') && collectConfigErrors(problems, () => validateToolName(expect.terminal_tool, ['expect', 'terminal_tool'], locate)));
  if (ok('expect', 'verdict')) problems.push(...expectedVerdictProblems(expect, locate));
  if (ok('expect_failure')) problems.push(...expectFailureProblems(spec, locate));
  const checks = format.typed(['expect', 'checks']) ? (expect.checks ?? []) : [];
  const checksAt: Locator = (path, expected, atKey) => locate(['expect', 'checks', ...path], expected, atKey);
  const checkIndexes = checks.flatMap((item, index) =>
    ok('expect', 'checks', index) && collectConfigErrors(problems, () => validateCheck(item, index, checksAt)) ? [index] : [],
  );
  if (revision) {
    problems.push(
      ...checkScenarioNames(
        {
          terminalTool: terminalValid ? expect.terminal_tool : undefined,
          references: checkReferences(checks, checkIndexes),
          script,
          allowUnknownTools: spec.model?.allow_unknown_tools === true,
          contextKeys: spec.inputs?.context && typeof spec.inputs.context === 'object' ? Object.keys(spec.inputs.context) : undefined,
        },
        builds,
        locate,
      ),
    );
  }
  let customChecks: CustomCheckRef[] = [];
  let judges: JudgeJob[] = [];
  // These read the check items whose parameters validated (the others are reported above):
  // an item left out is an empty object, so the indexes in their paths stay right.
  if (ok('expect', 'checks')) {
    const valid = new Set(checkIndexes);
    const validated = checks.map((check, index) => (valid.has(index) ? check : {}));
    collectConfigErrors(problems, () => {
      customChecks = customCheckRefs(validated, dir, locate);
    });
    collectConfigErrors(problems, () => {
      judges = judgeJobs(validated, { model: context.suiteGrader, at: context.suiteGraderAt }, checksAt);
    });
    checks.forEach((check, index) => {
      if (!valid.has(index)) problems.push(...graderModelProblems(check, index, checksAt));
    });
  }
  problems.push(...namedPlaceProblems(spec, format, dir, locate));
  // The suite's variants are still checked against the build of a scenario with problems (one pass).
  if (problems.length && withDelta && context.unloaded && ok('name') && typeof name === 'string') {
    const tags = ok('tags') ? (spec.tags ?? []) : [];
    context.unloaded.push({ id: `${fileId}#${name}`, name, tags, agentFile, revision: revision ?? withDelta, beforeModel: !revision });
  }
  throwConfigErrors(problems);
  if (!revision) throw new Error('unreachable: a scenario without format problems has its build loaded');

  const scenario: Scenario = {
    id: `${fileId}#${name}`,
    name,
    file: doc.file,
    agentFile,
    revision,
    inputs: spec.inputs,
    expect: { ...expect, checks },
    tags: spec.tags ?? [],
  };
  if (spec.description !== undefined) scenario.description = spec.description;
  if (spec.delta !== undefined) scenario.delta = spec.delta;
  if (spec.workspace !== undefined) scenario.workspace = resolve(dir, spec.workspace);
  if (script) scenario.script = script;
  if (customChecks.length) scenario.customChecks = customChecks;
  if (judges.length) scenario.judges = judges;
  if (approvals !== undefined) scenario.approvals = approvals;
  if (spec.mocks !== undefined) scenario.mocks = spec.mocks;
  if (spec.resume !== undefined) scenario.resume = spec.resume;
  if (spec.expect_failure !== undefined) scenario.expect_failure = spec.expect_failure;
  if (spec.timeout_ms !== undefined) scenario.timeout_ms = spec.timeout_ms;
  if (spec.skip !== undefined) scenario.skip = spec.skip;
  if (spec.skills !== undefined) {
    const skills = spec.skills;
    scenario.skills = {
      forced: (skills.forced ?? []).map((path) => resolve(dir, path)),
      overlay: (skills.overlay ?? []).map((path) => resolve(dir, path)),
      delivery: skills.delivery,
    };
  }
  return scenario;
}

/** The scenario's revision under each of the suite's variants (those that apply cleanly). */
function variantBuilds(revision: DeltaRevision, context: LoadContext): AgentBuild[] {
  const builds: AgentBuild[] = [];
  for (const [name, delta] of Object.entries(context.variants ?? {})) {
    try {
      builds.push(applyDelta(revision, delta, `variant ${name}`).build);
    } catch {
      // A variant that does not apply is the suite's error, reported where variants are applied.
    }
  }
  return builds;
}
