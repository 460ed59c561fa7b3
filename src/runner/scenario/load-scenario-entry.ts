import { dirname } from 'node:path';
import type { Locator } from '../../config/assert-format.js';
import { describeValue } from '../../config/describe-value.js';
import { collectConfigErrors, ConfigError, ConfigErrors, throwConfigErrors } from '../../config/errors.js';
import type { PathSegments, SourceDocument } from '../../config/source.js';
import { findTemplate, loadDataset } from './dataset.js';
import { expandRows, inheritedDefaults, type RawScenario } from './expand-dataset.js';
import type { LoadContext } from './load-context.js';
import { loadOneScenario } from './load-one-scenario.js';
import { rowFreeProblems } from './row-free-problems.js';
import type { Scenario } from './scenario.js';

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
  const entry = { doc, own, defaults, at, defaultsAt, fileId, context };
  let rows: ReturnType<typeof loadDataset>;
  // Rows that are no row (`5`, a .jsonl line that is no object) beside sound ones: said beside
  // what the sound rows show, which are expanded and checked all the same (one pass).
  const problems: ConfigError[] = [];
  try {
    if (!datasetOk) {
      const got = Array.isArray(dataset) ? 'an empty list' : describeValue(dataset);
      throw locateDataset([], `expected a .csv or .jsonl file (relative to the scenario file) or a non-empty list of rows, got ${got}`);
    }
    rows = loadDataset(dataset, dirname(doc.file), locateDataset, problems);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // No rows: the problems that do not depend on them are still said, and the variants still
    // checked against the build (one pass).
    const others = rowFreeProblems(entry);
    throw others.length ? new ConfigErrors([error, ...others]) : error;
  }
  let scenarios: Scenario[] = [];
  collectConfigErrors(problems, () => {
    scenarios = expandRows(
      rows,
      { doc, own, defaults, at, defaultsAt },
      (rendered, renderedDefaults) => loadOneScenario(doc, rendered, renderedDefaults, at, defaultsAt, fileId, context),
      () => rowFreeProblems(entry),
    );
  });
  throwConfigErrors(problems);
  return scenarios;
}
