import { dirname } from 'node:path';
import { checkFormat, type Locator } from '../../config/assert-format.js';
import { describeValue } from '../../config/describe-value.js';
import { collectConfigErrors, ConfigError, ConfigErrors } from '../../config/errors.js';
import type { PathSegments, SourceDocument } from '../../config/source.js';
import { validateCheck } from '../../verdicts/index.js';
import { findTemplate, loadDataset } from './dataset.js';
import { expandRows, inheritedDefaults, type RawScenario } from './expand-dataset.js';
import type { LoadContext } from './load-context.js';
import { loadOneScenario, scenarioPlace } from './load-one-scenario.js';
import type { Scenario } from './scenario.js';
import { scenarioSchema } from './scenario-schema.js';
import type { ScenarioSpec } from './scenario-format.generated.js';

/**
 * One entry of a scenario file: one scenario, or one per row of its `dataset` (docs/formats.md,
 * "Datasets"), each rendered with the row's `{{ vars.NAME }}` and then loaded like any scenario.
 */
export function loadScenarioEntry(
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
    return [loadOneScenario(doc, own, defaults, at, defaultsAt, fileId, context)];
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
  return expandRows(
    rows,
    { doc, own, defaults, at, defaultsAt },
    (rendered, renderedDefaults) => loadOneScenario(doc, rendered, renderedDefaults, at, defaultsAt, fileId, context),
    () => rowFreeProblems(doc, own, defaults, at, defaultsAt),
  );
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
