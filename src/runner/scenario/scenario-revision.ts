import { basename, resolve } from 'node:path';
import type { Locator } from '../../config/assert-format.js';
import { ConfigError } from '../../config/errors.js';
import { formatPath, SourceDocument, type PathSegments, type SourceView } from '../../config/source.js';
import { buildAgent } from '../../engine/revision/build-agent.js';
import { applyDelta, type DeltaRevision } from '../../engine/revision/delta.js';
import { loadAgentBuild } from '../../engine/revision/load-build.js';
import type { Revision } from '../../engine/revision/types.js';
import { DEFAULT_LLM } from '../../engine/providers/index.js';
import { validateLlmParameters } from '../../engine/providers/validate-parameters.js';
import type { LoadContext } from './load-scenario-file.js';
import { overrideLlm } from './model-override.js';
import { SCENARIO_FILE } from './discover.js';
import type { ScenarioSpec } from './scenario-format.generated.js';

/** Where a scenario is written, for the parts of loadOne that locate problems. */
export interface ScenarioPlace {
  doc: SourceDocument;
  dir: string;
  whereOf: (key: unknown) => PathSegments;
  locate: Locator;
}

/** The revision a scenario runs: its agent build (loaded once per suite), its delta, then its model override. */
export function scenarioRevision(spec: ScenarioSpec, agentFile: string, place: ScenarioPlace, context: LoadContext): DeltaRevision {
  const { doc, dir, whereOf, locate } = place;
  let base = context.agents.get(agentFile);
  // A scenario file named as the agent would be read as a broken build: say what was named.
  if (!base && SCENARIO_FILE.test(basename(agentFile))) {
    throw locate(['agent'], `names a scenario file (${agentFile}); expected an agent build (a file with id and agent, external or flow)`);
  }
  if (!base) {
    try {
      base = loadAgentBuild(agentFile);
    } catch (error) {
      if (error instanceof ConfigError && error.code === 'CONFIG_NOT_FOUND') {
        throw locate(['agent'], `agent build not found: ${agentFile}`);
      }
      throw atReference(error, agentFile, ['agent'], 'agent build', locate);
    }
    context.agents.set(agentFile, base);
  }

  let revision: DeltaRevision = plainRevision(base, context);
  if (spec.delta !== undefined) revision = applyScenarioDelta(revision, spec.delta, doc.view([...whereOf('delta'), 'delta']), dir, locate);
  const { script: _script, allow_unknown_tools: _allowUnknownTools, ...llmOverride } = spec.model ?? {};
  if (context.suiteModel || Object.keys(llmOverride).length) {
    const current = buildAgent(revision.build).llm ?? DEFAULT_LLM;
    const llm = overrideLlm(overrideLlm(current, context.suiteModel ?? {}), llmOverride);
    if (llm.model === undefined)
      throw locate(['model', 'provider'], `model.provider changes the provider to "${String(llm.provider)}": name its model too (model.model)`);
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
  return revision;
}

/** A scenario's delta: inline, or a path to a delta file relative to the scenario file. */
function applyScenarioDelta(revision: DeltaRevision, delta: unknown, view: SourceView, dir: string, locate: Locator): DeltaRevision {
  if (typeof delta !== 'string') return applyDelta(revision, delta, view);
  const file = resolve(dir, delta);
  let deltaDoc: SourceDocument;
  try {
    deltaDoc = SourceDocument.read(file);
  } catch (error) {
    throw atReference(error, file, ['delta'], 'delta file', locate);
  }
  return applyDelta(revision, deltaDoc.value, deltaDoc);
}

/**
 * A problem of a referenced file as a whole (missing, a folder, unreadable, too large: no line
 * in it) is reported where the scenario names the file, so a suite of many scenarios says which
 * one to fix. A problem inside the file keeps its own location.
 */
function atReference(error: unknown, file: string, key: PathSegments, what: string, locate: Locator): unknown {
  if (!(error instanceof ConfigError) || error.file !== file || error.line !== undefined || error.path !== undefined) return error;
  return locate(key, `${what} ${file}: ${error.expected}`);
}

function plainRevision(base: Revision, context: LoadContext): DeltaRevision {
  context.plain ??= new Map();
  let plain = context.plain.get(base);
  if (!plain) context.plain.set(base, (plain = { ...base, deltaHash: null }));
  return plain;
}
