import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { assertFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, ConfigError, throwConfigErrors, type SourceLocation } from '../../config/errors.js';
import { formatPath, SourceDocument, type PathSegments, type SourceView } from '../../config/source.js';
import { applyDelta, type DeltaRevision } from '../../engine/revision/delta.js';
import { loadAgentBuild } from '../../engine/revision/load-build.js';
import type { AgentBuild, LlmSpec, Revision } from '../../engine/revision/types.js';
import { DEFAULT_LLM } from '../../engine/providers/index.js';
import { validateLlmParameters } from '../../engine/providers/validate-parameters.js';
import { loadSkillFolder } from '../../skills/load-skill-folder.js';
import { checkReferences, validateCheck, validateToolName, type CustomCheckParams } from '../../verdicts/index.js';
import type { CustomCheckRef } from '../checks/custom-check-ref.js';
import { checkApprovalTools } from './check-approval-tools.js';
import { buildAgent } from '../../engine/revision/build-agent.js';
import { checkScenarioNames } from './check-scenario-names.js';
import { findTemplate, loadDataset, renderTemplates } from './dataset.js';
import { judgeJobs, type GraderModel, type JudgeJob } from '../judge/grader-model.js';
import { scenarioFileId, type FoundScenarioFile } from './discover.js';
import { validateHttpMocks } from '../mocks/validate-mocks.js';
import { scenarioFileSchema, scenarioSchema, validateScript } from './scenario-schema.js';
import type { Scenario } from './scenario.js';
import type { ScenarioFileSpec, ScenarioSpec } from './scenario-format.generated.js';
import { isDirectory } from '../files/walk-files.js';
import { overrideLlm } from './model-override.js';

/** Shared while loading a suite: agent builds are parsed once however many scenarios use them. */
export interface LoadContext {
  agents: Map<string, Revision>;
  /** The build as a DeltaRevision with no delta, shared by the scenarios that change nothing. */
  plain?: Map<Revision, DeltaRevision>;
  /** Suite-level default model (`model` in agentcheck.config.yaml). */
  suiteModel?: Partial<LlmSpec>;
  /** Suite-level default grader of judge checks (`judge.model` in agentcheck.config.yaml). */
  suiteGrader?: GraderModel;
  /**
   * The suite's variant deltas (`variants` in agentcheck.config.yaml): a tool a variant adds may
   * be answered in a scenario's `approvals.tools`. Without them, only the scenario's own
   * revision counts.
   */
  variants?: Record<string, unknown>;
}

type RawScenario = Record<string, unknown>;

/** Loads one scenario file: one scenario, or `scenarios:` with `defaults` (docs/formats.md, Scenario). */
export function loadScenarioFile(found: FoundScenarioFile, context: LoadContext): Scenario[] {
  const doc = SourceDocument.read(found.file);
  const value = doc.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw doc.error([], 'expected a scenario (a mapping with name, agent, inputs) or {scenarios: [...], defaults: {...}}');
  }
  const fileId = scenarioFileId(found.file, found.root);
  const raw = value as RawScenario;
  if (!('scenarios' in raw)) return loadEntry(doc, raw, {}, [], [], fileId, context);

  assertFormat<ScenarioFileSpec>(scenarioFileSchema, raw, (path, expected, atKey) => doc.error(path, expected, 'CONFIG_INVALID', atKey));
  const defaults: RawScenario = raw.defaults ?? {};
  const names = new Map<string, number>();
  // Every scenario of the file is checked, so one pass reports every problem.
  const problems: ConfigError[] = [];
  const loaded: Scenario[] = [];
  raw.scenarios.forEach((scenario, index) => collectConfigErrors(problems, () => {
    const at = ['scenarios', index];
    for (const one of loadEntry(doc, scenario, defaults, at, ['defaults'], fileId, context)) {
      const previous = names.get(one.name);
      if (previous !== undefined) throw doc.error([...at, 'name'], `duplicate scenario name "${one.name}" (also scenarios[${previous}]); names must be unique within a file`);
      names.set(one.name, index);
      loaded.push(one);
    }
  }));
  throwConfigErrors(problems);
  return loaded;
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
    const used = findTemplate(own, at) ?? findTemplate(defaults, defaultsAt);
    if (used) throw doc.error(used, 'uses {{ vars.* }}, but the scenario has no dataset; add `dataset: FILE.csv | FILE.jsonl | [rows]` or remove the template');
    return [loadOne(doc, own, defaults, at, defaultsAt, fileId, context)];
  }
  const datasetAt = [...(ownDataset ? at : defaultsAt), 'dataset'];
  const locateDataset: Locator = (path, expected, atKey) => doc.error([...datasetAt, ...path], expected, 'CONFIG_INVALID', atKey);
  const datasetOk = (typeof dataset === 'string' && dataset.length > 0) || (Array.isArray(dataset) && dataset.length > 0);
  if (!datasetOk) throw locateDataset([], 'expected a .csv or .jsonl file (relative to the scenario file) or a non-empty list of rows');
  const rows = loadDataset(dataset, dirname(doc.file), locateDataset);
  const locate: Locator = (path, expected, atKey) => doc.error(path, expected, 'CONFIG_INVALID', atKey);
  const { dataset: _own, ...ownTemplate } = own;
  const { dataset: _shared, ...defaultsTemplate } = defaults;
  const names = new Map<string, string>();
  return rows.map((row) => {
    const rendered = renderTemplates(ownTemplate, row, at, locate) as RawScenario;
    const renderedDefaults = renderTemplates(defaultsTemplate, row, defaultsAt, locate) as RawScenario;
    let scenario: Scenario;
    try {
      scenario = loadOne(doc, rendered, renderedDefaults, at, defaultsAt, fileId, context);
    } catch (error) {
      // The expanded scenario is what failed: say which row produced it.
      if (error instanceof ConfigError && !error.expected.includes(row.where)) {
        throw new ConfigError({ file: error.file, line: error.line, column: error.column, path: error.path }, `${error.expected} (dataset row ${row.where})`, error.code);
      }
      throw error;
    }
    const previous = names.get(scenario.name);
    if (previous !== undefined) {
      throw doc.error([...at, 'name'], `dataset rows ${previous} and ${row.where} both give the scenario name "${scenario.name}"; names must be unique: use a {{ vars.NAME }} in the name that differs between rows`);
    }
    names.set(scenario.name, row.where);
    return scenario;
  });
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
  // A field's errors point where the field was written: the scenario, or the shared defaults.
  const whereOf = (key: unknown): PathSegments => (typeof key === 'string' && !(key in own) && key in defaults ? defaultsAt : at);
  const locate: Locator = (path, expected, atKey) => doc.error([...whereOf(path[0]), ...path], expected, 'CONFIG_INVALID', atKey);
  assertFormat<ScenarioSpec>(scenarioSchema, merged, locate);

  const dir = dirname(doc.file);
  const name = merged.name;
  const agentFile = resolve(dir, merged.agent);
  let base = context.agents.get(agentFile);
  if (!base) {
    try {
      base = loadAgentBuild(agentFile);
    } catch (error) {
      if (error instanceof ConfigError && error.code === 'CONFIG_NOT_FOUND') {
        throw locate(['agent'], `agent build not found: ${agentFile}`);
      }
      throw error;
    }
    context.agents.set(agentFile, base);
  }

  let revision: DeltaRevision = plainRevision(base, context);
  if (merged.delta !== undefined) revision = applyScenarioDelta(revision, merged.delta, doc.view([...whereOf('delta'), 'delta']), dir);
  const { script, allow_unknown_tools: allowUnknownTools, ...llmOverride } = merged.model ?? {};
  if (context.suiteModel || Object.keys(llmOverride).length) {
    const current = buildAgent(revision.build).llm ?? DEFAULT_LLM;
    const llm = overrideLlm(overrideLlm(current, context.suiteModel ?? {}), llmOverride);
    if (llm.model === undefined) throw locate(['model', 'provider'], `model.provider changes the provider to "${String(llm.provider)}": name its model too (model.model)`);
    if (llmOverride.parameters !== undefined) {
      validateLlmParameters(llm, (path, expected, atKey) => locate(['model', ...path], expected, atKey), ['parameters']);
    } else if (context.suiteModel?.parameters !== undefined && llm.parameters !== undefined) {
      // The suite's parameters meet the provider only here; the error names where they were written.
      validateLlmParameters(llm, (path, expected) => locate(['agent'], `the suite config's model.${formatPath(path)}: ${expected}`), ['parameters']);
    }
    // The agent's llm is replaced, not deep-merged, so parameters the override leaves out are gone.
    // An external build's model is its `external.llm` (the one its model bridge answers from).
    const part = revision.build.external ? 'external' : 'agent';
    const { llm: _replaced, ...rest } = (revision.build[part] ?? {}) as { llm?: unknown };
    const withoutLlm = { ...revision, build: { ...revision.build, [part]: rest } };
    revision = applyDelta(withoutLlm, { set: { [part]: { llm } } }, doc.view([...whereOf('model'), 'model']));
  }

  // From here on each part is checked on its own, so one pass reports every problem.
  const problems: ConfigError[] = [];
  const builds = [revision.build, ...variantBuilds(revision, context)];
  if (script) collectConfigErrors(problems, () => validateScript(script, (path, expected, atKey) => locate(['model', 'script', ...path], expected, atKey)));
  const mocks = merged.mocks?.http;
  if (mocks) collectConfigErrors(problems, () => validateHttpMocks(mocks, (path, expected, atKey) => locate(['mocks', 'http', ...path], expected, atKey)));
  const approvals = merged.approvals;
  if (approvals?.tools) {
    const tools = approvals.tools;
    collectConfigErrors(problems, () => checkApprovalTools(tools, builds, (path, expected, atKey) => locate(['approvals', 'tools', ...path], expected, atKey)));
  }

  const expect = merged.expect ?? {};
  const terminalValid = expect.terminal_tool === undefined || collectConfigErrors(problems, () => validateToolName(expect.terminal_tool, ['expect', 'terminal_tool'], locate));
  const checks = expect.checks ?? [];
  const checksAt: Locator = (path, expected, atKey) => locate(['expect', 'checks', ...path], expected, atKey);
  const checkIndexes = checks.flatMap((item, index) => (collectConfigErrors(problems, () => validateCheck(item, index, checksAt)) ? [index] : []));
  problems.push(...checkScenarioNames({
    terminalTool: terminalValid ? expect.terminal_tool : undefined,
    references: checkReferences(checks, checkIndexes),
    script,
    allowUnknownTools: allowUnknownTools === true,
  }, builds, locate));
  let customChecks: CustomCheckRef[] = [];
  collectConfigErrors(problems, () => {
    customChecks = customCheckRefs(checks, dir, locate);
  });
  let judges: JudgeJob[] = [];
  collectConfigErrors(problems, () => {
    judges = judgeJobs(checks, context.suiteGrader, checksAt);
  });
  throwConfigErrors(problems);

  const scenario: Scenario = {
    id: `${fileId}#${name}`,
    name,
    file: doc.file,
    agentFile,
    revision,
    inputs: merged.inputs,
    expect: { ...expect, checks },
    tags: merged.tags ?? [],
  };
  if (merged.description !== undefined) scenario.description = merged.description;
  if (merged.delta !== undefined) scenario.delta = merged.delta;
  if (merged.workspace !== undefined) {
    scenario.workspace = resolve(dir, merged.workspace);
    // A missing folder would silently run on an empty workspace instead.
    if (!isDirectory(scenario.workspace)) throw locate(['workspace'], `workspace folder not found: ${scenario.workspace}`);
  }
  if (script) scenario.script = script;
  if (customChecks.length) scenario.customChecks = customChecks;
  if (judges.length) scenario.judges = judges;
  if (approvals !== undefined) scenario.approvals = approvals;
  if (merged.mocks !== undefined) scenario.mocks = merged.mocks;
  if (merged.resume !== undefined) scenario.resume = merged.resume;
  if (merged.expect_failure !== undefined) scenario.expect_failure = merged.expect_failure;
  if (merged.timeout_ms !== undefined) scenario.timeout_ms = merged.timeout_ms;
  if (merged.skip !== undefined) scenario.skip = merged.skip;
  if (merged.skills !== undefined) {
    const skills = merged.skills;
    scenario.skills = {
      forced: (skills.forced ?? []).map((path) => resolve(dir, path)),
      overlay: (skills.overlay ?? []).map((path) => resolve(dir, path)),
      delivery: skills.delivery,
    };
    // A folder that is not a skill is invalid input: say so now, not in the middle of the run.
    const check = (paths: string[], key: string) => paths.forEach((path, i) => {
      try {
        loadSkillFolder(path);
      } catch (error) {
        throw locate(['skills', key, i], error instanceof Error ? error.message : String(error));
      }
    });
    check(scenario.skills.forced, 'forced');
    check(scenario.skills.overlay, 'overlay');
  }
  return scenario;
}

/**
 * The scenario's `custom` checks with their modules resolved against the scenario's folder; a
 * module file that does not exist is refused here, the runner imports the rest before any run.
 */
function customCheckRefs(checks: ReadonlyArray<Record<string, unknown>>, dir: string, locate: Locator): CustomCheckRef[] {
  const refs: CustomCheckRef[] = [];
  checks.forEach((check, index) => {
    if (!('custom' in check)) return;
    const { module, params } = check.custom as CustomCheckParams;
    const at = ['expect', 'checks', index, 'custom'];
    const absolute = resolve(dir, module);
    if (!existsSync(absolute)) throw locate([...at, 'module'], `custom check module not found: ${absolute}`);
    const where = (path: PathSegments): SourceLocation => {
      const { file, line, column, path: jsonPath } = locate(path, '');
      return { file, line, column, path: jsonPath };
    };
    refs.push({ index, written: module, module: absolute, params, moduleAt: where([...at, 'module']), paramsAt: where(params === undefined ? at : [...at, 'params']) });
  });
  return refs;
}

/** A scenario's delta: inline, or a path to a delta file relative to the scenario file. */
function applyScenarioDelta(revision: DeltaRevision, delta: unknown, view: SourceView, dir: string): DeltaRevision {
  if (typeof delta !== 'string') return applyDelta(revision, delta, view);
  const deltaDoc = SourceDocument.read(resolve(dir, delta));
  return applyDelta(revision, deltaDoc.value, deltaDoc);
}

function plainRevision(base: Revision, context: LoadContext): DeltaRevision {
  context.plain ??= new Map();
  let plain = context.plain.get(base);
  if (!plain) context.plain.set(base, (plain = { ...base, deltaHash: null }));
  return plain;
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

