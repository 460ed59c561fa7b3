import { dirname, resolve } from 'node:path';
import { checkFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, type ConfigError } from '../../config/errors.js';
import type { PathSegments, SourceDocument } from '../../config/source.js';
import { validateCheck } from '../../verdicts/index.js';
import { findTemplate } from './dataset.js';
import type { RawScenario } from './expand-dataset.js';
import type { LoadContext } from './load-context.js';
import { scenarioPlace } from './load-one-scenario.js';
import { scenarioRevision } from './scenario-revision.js';
import { scenarioSchema } from './scenario-schema.js';
import type { ScenarioSpec } from './scenario-format.generated.js';
import { recordVariantSubject } from './variant-subject.js';

/** Where a dataset entry is written and what it is loaded into. */
export interface RowFreeEntry {
  doc: SourceDocument;
  own: RawScenario;
  defaults: RawScenario;
  at: PathSegments;
  defaultsAt: PathSegments;
  fileId: string;
  context: LoadContext;
}

/**
 * A dataset scenario's problems that no row can change, for when none of its rows could be loaded
 * (the dataset cannot be read, or no row renders): unknown keys (keys are never rendered), the
 * problems of check items that hold no template, the format problems of `model`'s keys (its script
 * aside) that hold none, and those of its `agent`, `delta` and `model` when they hold none. Its
 * build with its delta, once loaded, is recorded (once, not per row) for the suite's variants to
 * be checked against it (docs/cli.md, validate).
 */
export function rowFreeProblems({ doc, own, defaults, at, defaultsAt, fileId, context }: RowFreeEntry): ConfigError[] {
  const { whereOf, locate } = scenarioPlace(doc, own, defaults, at, defaultsAt);
  const format = checkFormat<ScenarioSpec>(scenarioSchema, { ...defaults, ...own }, locate);
  // Beside unknown keys, the format problems of `model` where it holds no template, its script
  // aside (rows may feed it): said as a scenario without a dataset says them.
  const modelProblems = new Set(format.errorsExcept((path) => path[0] !== 'model' || !rowFreeModelPart(format.value.model, path[1])));
  const problems = format.errors.filter((problem) => problem.expected.startsWith('unknown key') || modelProblems.has(problem));
  const checks = format.typed(['expect', 'checks']) ? (format.value.expect?.checks ?? []) : [];
  const checksAt: Locator = (path, expected, atKey) => locate(['expect', 'checks', ...path], expected, atKey);
  checks.forEach((item, index) => {
    if (!JSON.stringify(item).includes('{{')) collectConfigErrors(problems, () => validateCheck(item, index, checksAt));
  });

  // The build as every row would load it: only the parts that hold no template, which no row changes.
  const spec = format.value;
  const ok = (...path: PathSegments) => format.valid(path);
  const untemplated = (value: unknown) => findTemplate(value) === null;
  const agentOk = ok('agent') && typeof spec.agent === 'string' && untemplated(spec.agent);
  const dir = dirname(doc.file);
  const agentFile = resolve(dir, agentOk ? spec.agent : '');
  // The override's keys that hold no template, checked as a scenario without a dataset checks them
  // (its parameters against its provider); a templated key is left out as a key with a format
  // problem is, and a templated provider leaves its parameters unchecked (overrideModel).
  const modelKey = (key: string) => ok('model', key) && untemplated((spec.model as Record<string, unknown> | undefined)?.[key]);
  const revisions = scenarioRevision(
    spec,
    agentFile,
    { doc, dir, whereOf, locate },
    context,
    { agent: agentOk, delta: ok('delta') && untemplated(spec.delta), model: format.typed(['model']), modelKey },
    problems,
  );
  recordVariantSubject(context, fileId, spec, (key) => ok(key), agentFile, revisions);
  return problems;
}

/** Whether the part of `model` at `key` (the whole of it, script aside, when none) holds no template, so no row changes it. */
function rowFreeModelPart(model: unknown, key: string | number | undefined): boolean {
  if (key === 'script') return false;
  if (!model || typeof model !== 'object' || Array.isArray(model)) return findTemplate(model) === null;
  const { script: _script, ...rest } = model as Record<string, unknown>;
  return findTemplate(key === undefined ? rest : rest[key]) === null;
}
