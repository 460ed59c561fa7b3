import { assertMappingFile, FILE_KINDS, isFileKindRefusal } from '../../config/document-kind.js';
import { scenarioPathHint } from './relative-path-hint.js';
import { basename, resolve } from 'node:path';
import type { Locator } from '../../config/assert-format.js';
import { collectConfigErrors, ConfigError } from '../../config/errors.js';
import { formatPath, SourceDocument, type PathSegments, type SourceView } from '../../config/source.js';
import { buildAgent } from '../../engine/revision/build-agent.js';
import { applyDelta, checkDeltaAlone, type DeltaRevision } from '../../engine/revision/delta.js';
import { touchesLlm } from '../../engine/revision/delta-touches-llm.js';
import { loadAgentBuild } from '../../engine/revision/load-build.js';
import type { Revision } from '../../engine/revision/types.js';
import { DEFAULT_LLM } from '../../engine/providers/index.js';
import { validateLlmParameters } from '../../engine/providers/validate-parameters.js';
import type { LoadContext } from './load-context.js';
import { overrideLlm } from './model-override.js';
import { SCENARIO_FILE } from './discover.js';
import type { ScenarioSpec } from './scenario-format.generated.js';

/** Where a scenario is written, for the parts of loadOneScenario that locate problems. */
export interface ScenarioPlace {
  doc: SourceDocument;
  dir: string;
  whereOf: (key: unknown) => PathSegments;
  locate: Locator;
}

/** Which of a scenario's `agent`, `delta` and `model` (its llm keys) the scenario's format check left intact. */
export interface RevisionParts {
  agent: boolean;
  delta: boolean;
  /** `model` is a mapping. */
  model: boolean;
  /** This llm key of `model` has no format problem: the others are still checked beside it. */
  modelKey: (key: string) => boolean;
}

/** What scenarioRevision could make of a scenario's build. */
export interface ScenarioRevisions {
  /** The revision the scenario runs (build, delta, model override), when every part applied. */
  revision?: DeltaRevision;
  /** The build with the scenario's delta (before the model override), when those applied: the suite's variants are checked against it. */
  withDelta?: DeltaRevision;
  /** The build before the scenario's delta: a name the delta took away is said to be gone because of it. */
  beforeDelta?: Revision;
}

/**
 * The revision a scenario runs: its agent build (loaded once per suite), its delta, then its model
 * override. Each part is checked as far as the parts it stands on allow, so one does not hide
 * another's problems (docs/cli.md, validate): a delta's own format needs no build, its paths need
 * the build, and the model override needs the build with its delta (or, when the delta does not
 * apply and leaves the llm alone, the build without it). Every problem goes to `problems`.
 */
export function scenarioRevision(
  spec: ScenarioSpec,
  agentFile: string,
  place: ScenarioPlace,
  context: LoadContext,
  parts: RevisionParts,
  problems: ConfigError[],
): ScenarioRevisions {
  const { doc, dir, whereOf, locate } = place;
  const deltaView = () => doc.view([...whereOf('delta'), 'delta']);
  let base: Revision | undefined;
  if (parts.agent) collectConfigErrors(problems, () => (base = agentBuild(agentFile, locate, context, () => scenarioPathHint(spec.agent, dir, 'file'))));
  if (!base) {
    if (parts.delta && spec.delta !== undefined) {
      collectConfigErrors(problems, () => {
        const delta = readScenarioDelta(spec.delta, deltaView(), dir, locate);
        checkDeltaAlone(delta.value, delta.source);
      });
    }
    return {};
  }

  const plain = plainRevision(base, context);
  let withDelta: DeltaRevision | undefined = plain;
  // The delta as written, once read: whether it changes the llm decides what the override is checked against.
  let deltaValue: unknown;
  if (spec.delta !== undefined) {
    withDelta = undefined;
    if (parts.delta) {
      collectConfigErrors(problems, () => {
        const delta = readScenarioDelta(spec.delta, deltaView(), dir, locate);
        deltaValue = delta.value;
        withDelta = applyDelta(plain, delta.value, delta.source);
      });
    }
  }
  if (!parts.model) return { withDelta, beforeDelta: plain };
  // The override replaces the llm the delta left: it is checked once the delta applied. A delta
  // that does not apply (or is unreadable) but leaves the llm alone changes nothing the override
  // meets, so it is checked against the build without it, beside the delta's problems.
  const over = withDelta ?? (deltaValue !== undefined && !touchesLlm(deltaValue) ? plain : undefined);
  if (!over) return { withDelta, beforeDelta: plain };
  let revision: DeltaRevision | undefined;
  collectConfigErrors(problems, () => (revision = overrideModel(over, spec, agentFile, place, context, parts.modelKey)));
  return withDelta ? { revision, withDelta, beforeDelta: plain } : {};
}

/** The scenario's agent build, loaded once per suite; a problem of the file as a whole is located at `agent`. */
function agentBuild(agentFile: string, locate: Locator, context: LoadContext, hint: () => string): Revision {
  let base = context.agents.get(agentFile);
  if (base) return base;
  // A scenario file named as the agent would be read as a broken build: say what was named.
  if (SCENARIO_FILE.test(basename(agentFile))) {
    throw locate(['agent'], `names a scenario file (${agentFile}); expected an agent build (a file with id and agent, external or flow)`);
  }
  try {
    base = loadAgentBuild(agentFile);
  } catch (error) {
    // The file itself missing (no line in it): a missing skill folder it names is located inside it.
    if (error instanceof ConfigError && error.code === 'CONFIG_NOT_FOUND' && error.line === undefined) {
      throw locate(['agent'], `agent build not found: ${agentFile}${hint()}`);
    }
    throw atReference(error, agentFile, ['agent'], 'agent build', locate);
  }
  context.agents.set(agentFile, base);
  return base;
}

/** The suite's and the scenario's `model:` over the llm of the build (with its delta). */
function overrideModel(
  revision: DeltaRevision,
  spec: ScenarioSpec,
  agentFile: string,
  place: ScenarioPlace,
  context: LoadContext,
  sound: (key: string) => boolean,
): DeltaRevision {
  const { doc, whereOf, locate } = place;
  const { script: _script, allow_unknown_tools: _allowUnknownTools, ...written } = spec.model ?? {};
  // A key with a format problem (`timeout_ms: 0`) was reported by it; the others are still checked
  // (docs/cli.md, validate), unless the provider they are checked for is the bad one.
  if (written.provider !== undefined && !sound('provider')) return revision;
  const llmOverride = Object.fromEntries(Object.entries(written).filter(([key]) => sound(key))) as typeof written;
  if (!context.suiteModel && !Object.keys(llmOverride).length) return revision;
  const current = buildAgent(revision.build).llm ?? DEFAULT_LLM;
  const suiteModel = context.suiteModel ?? {};
  const afterSuite = overrideLlm(current, suiteModel);
  const llm = overrideLlm(afterSuite, llmOverride);
  // A problem the suite's `model:` makes is the config's, located there (once, however many
  // scenarios meet it); naming the build when it depends on the build's provider.
  const suiteAt = (path: PathSegments, expected: string, perBuild: boolean) =>
    context.suiteModelAt?.(path, expected, perBuild ? agentFile : undefined) ?? locate(['agent'], `the suite config's model.${formatPath(path)}: ${expected}`);
  if (llm.model === undefined) {
    // A misspelt `model` (`mdoel`) is the typo alone, not also a missing model.
    if (Object.keys(written).some((key) => !sound(key))) return revision;
    const switched = `model.provider changes the provider to "${String(llm.provider)}": name its model too (model.model)`;
    // The scenario's own provider switched away from the suite's llm; else the suite's switched the build's.
    const ownSwitch = llmOverride.provider !== undefined && llmOverride.provider !== afterSuite.provider;
    throw ownSwitch || !context.suiteModelAt ? locate(['model', 'provider'], switched) : suiteAt(['provider'], switched, false);
  }
  if (llmOverride.parameters !== undefined) {
    validateLlmParameters(llm, (path, expected, atKey) => locate(['model', ...path], expected, atKey), ['parameters']);
  } else if (suiteModel.parameters !== undefined && llm.parameters !== undefined) {
    // The suite's parameters meet the build's provider only here (against its own provider, the
    // config checked them when it loaded).
    validateLlmParameters(llm, (path, expected) => suiteAt(path, expected, suiteModel.provider === undefined), ['parameters']);
  }
  // The agent's llm is replaced, not deep-merged, so parameters the override leaves out are gone.
  // An external build's model is its `external.llm` (the one its model bridge answers from).
  const part = revision.build.external ? 'external' : 'agent';
  const { llm: _replaced, ...rest } = (revision.build[part] ?? {}) as { llm?: unknown };
  // The build before any delta stays the one the override's delta is merged against (merged-delta.ts).
  const withoutLlm = { ...revision, build: { ...revision.build, [part]: rest }, base: revision.base ?? revision.build };
  return applyDelta(withoutLlm, { set: { [part]: { llm } } }, doc.view([...whereOf('model'), 'model']));
}

/** A scenario's delta: inline, or a path to a delta file relative to the scenario file; with where it is written. */
function readScenarioDelta(delta: unknown, view: SourceView, dir: string, locate: Locator): { value: unknown; source: SourceView | SourceDocument } {
  if (typeof delta !== 'string') return { value: delta, source: view };
  const file = resolve(dir, delta);
  let deltaDoc: SourceDocument;
  try {
    deltaDoc = SourceDocument.read(file);
    assertMappingFile(deltaDoc, FILE_KINDS.delta, 'DELTA_INVALID');
  } catch (error) {
    throw atReference(error, file, ['delta'], 'delta file', locate);
  }
  return { value: deltaDoc.value, source: deltaDoc };
}

/**
 * A problem of a referenced file as a whole (missing, a folder, unreadable, too large: no line
 * in it; or not a mapping at all) is reported where the scenario names the file, so a suite of
 * many scenarios says which one to fix. A problem inside the file keeps its own location.
 */
function atReference(error: unknown, file: string, key: PathSegments, what: string, locate: Locator): unknown {
  if (!(error instanceof ConfigError) || error.file !== file || error.path !== undefined) return error;
  if (error.line !== undefined && !isFileKindRefusal(error)) return error;
  return locate(key, `${what} ${file}: ${error.expected}`);
}

function plainRevision(base: Revision, context: LoadContext): DeltaRevision {
  context.plain ??= new Map();
  let plain = context.plain.get(base);
  if (!plain) context.plain.set(base, (plain = { ...base, deltaHash: null }));
  return plain;
}
