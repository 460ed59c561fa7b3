import { ConfigError, ConfigErrors, throwConfigErrors } from '../../config/errors.js';
import type { Locator } from '../../config/assert-format.js';
import type { PathSegments, SourceDocument } from '../../config/source.js';
import { missingVariable, renderTemplates, type DatasetRow } from './dataset.js';
import type { Scenario } from './scenario.js';
import { isRowsOwnProblem, templatedPaths } from './row-dependent-problem.js';
import { wholeTemplatePaths, withTemplateTypeHint } from './template-type-hint.js';

/** A scenario entry as written, before its rows (if any) render it. */
export type RawScenario = Record<string, unknown>;

/** Where an entry with a dataset is written: its own keys and its file's defaults. */
export interface DatasetEntry {
  doc: SourceDocument;
  own: RawScenario;
  defaults: RawScenario;
  at: PathSegments;
  defaultsAt: PathSegments;
}

/** The fields of `defaults` a scenario takes (those it does not set itself), without the dataset. */
export function inheritedDefaults(defaults: RawScenario, own: RawScenario): RawScenario {
  const inherited: RawScenario = {};
  for (const [key, value] of Object.entries(defaults)) if (key !== 'dataset' && !(key in own)) inherited[key] = value;
  return inherited;
}

/** The problem of a scenario expanded from a dataset, naming its row (`(dataset row orders.csv:7)`) unless it already does. */
export function inDatasetRow(error: ConfigError, where: string): ConfigError {
  if (error.expected.includes(where)) return error;
  const { file, line, column, path } = error;
  return new ConfigError({ file, line, column, path }, `${error.expected} (dataset row ${where})`, error.code);
}

/**
 * One scenario per row (docs/formats.md, "Datasets"): each row renders the entry and `load`
 * loads it like any scenario. Every row is expanded and checked: its problems and duplicate names
 * come together in one pass (docs/cli.md). A problem at a templated value is said for each row
 * that has it; any other (a field without a template, a key beside a template, a malformed
 * template) once for each text it takes, for the first row that shows it; one located in another
 * file (the suite config's grader) as that file's, without a row.
 */
export function expandRows(
  rows: readonly DatasetRow[],
  { doc, own, defaults, at, defaultsAt }: DatasetEntry,
  load: (rendered: RawScenario, renderedDefaults: RawScenario) => Scenario,
  rowFreeProblems: () => ConfigError[] = () => [],
): Scenario[] {
  const locate: Locator = (path, expected, atKey) => doc.error(path, expected, 'CONFIG_INVALID', atKey);
  const { dataset: _own, ...ownTemplate } = own;
  // Only the defaults this scenario inherits are rendered: a field it sets itself never uses them.
  const defaultsTemplate = inheritedDefaults(defaults, own);
  // A type error at one of these says why: the value came from the row as it is.
  const wholes = wholeTemplatePaths(defaultsTemplate, defaultsAt, wholeTemplatePaths(ownTemplate, at));
  const names = new Map<string, string>();
  const problems = new Map<string, ConfigError>();
  const templated = templatedPaths([
    { value: ownTemplate, at },
    { value: defaultsTemplate, at: defaultsAt },
  ]);
  // The variables some row gives: a row without one of them is what is wrong, not the template.
  const given = new Set(rows.flatMap((row) => Object.keys(row.vars)));
  // `rendered`: a problem of the rendered scenario, which at a templated value is the row's own
  // (each row's blank message is said). A template's problem is said once (its message names what
  // of the row it depends on, the row's variables), unless the row lacks a variable other rows
  // give: then each row that lacks it is said, so one pass lists every row to fix.
  const add = (error: unknown, row: DatasetRow, rendered = false) => {
    if (!(error instanceof ConfigError)) throw error;
    for (const one of error instanceof ConfigErrors ? error.errors : [error]) {
      // Another file's problem (the suite config's `judge.model`) is no row's: said as it is, so
      // every scenario of the suite that meets it gives the same line, said once.
      if (one.file !== doc.file) {
        problems.set(`${one.file}\n${one.message}`, one);
        continue;
      }
      const lacking = missingVariable(one);
      const ofRow = (rendered && isRowsOwnProblem(one, templated)) || (lacking !== undefined && given.has(lacking)) ? `${row.where}:` : '';
      // A variable no row gives is a misspelt name: once at each use, whatever keys the rows have
      // (its message lists them, which differs between JSONL rows).
      const said = lacking !== undefined && !given.has(lacking) ? `no variable ${lacking}` : one.expected.replace(row.where, '');
      const key = `${ofRow}${one.file}:${one.line}:${one.column}:${one.path}:${said}`;
      if (problems.has(key)) continue;
      problems.set(key, withTemplateTypeHint(inDatasetRow(one, row.where), wholes, row));
    }
  };
  const renderedName = (row: DatasetRow): string | undefined => {
    const [template, where] = ownTemplate.name !== undefined ? [ownTemplate.name, at] : [defaultsTemplate.name, defaultsAt];
    try {
      const name = renderTemplates(template, row, [...where, 'name'], locate);
      return typeof name === 'string' ? name : undefined;
    } catch {
      return undefined; // said with the rest of the row's templates below
    }
  };
  let renderedAny = false;
  const scenarios = rows.flatMap((row) => {
    // Names are compared as rendered, also for rows whose scenario has other problems.
    const name = renderedName(row);
    const previous = name === undefined ? undefined : names.get(name);
    if (name !== undefined && previous !== undefined) {
      const message = `dataset rows ${previous} and ${row.where} both give the scenario name "${name}"; names must be unique: use a {{ vars.NAME }} in the name that differs between rows`;
      problems.set(`name:${name}`, doc.error([...at, 'name'], message));
    } else if (name !== undefined) names.set(name, row.where);
    let rendered: RawScenario;
    let renderedDefaults: RawScenario;
    try {
      rendered = renderTemplates(ownTemplate, row, at, locate) as RawScenario;
      renderedDefaults = renderTemplates(defaultsTemplate, row, defaultsAt, locate) as RawScenario;
    } catch (error) {
      add(error, row);
      return [];
    }
    renderedAny = true;
    try {
      // Problems found later (a custom check's paramsSchema, at run) name the row too, and say
      // the dataset rule behind a type error at a whole-string template.
      const scenario = load(rendered, renderedDefaults);
      for (const ref of scenario.customChecks ?? []) ref.rowTemplates = { wholes, templated, fromCsv: row.fromCsv === true };
      return [{ ...scenario, datasetRow: row.where }];
    } catch (error) {
      add(error, row, true);
      return [];
    }
  });
  // No row rendered (a variable no row gives): the scenario's other problems, which no row can
  // change, are said beside it, so the file's problems still come in one pass.
  if (!renderedAny) for (const problem of rowFreeProblems()) problems.set(`row-free\n${problem.message}`, problem);
  throwConfigErrors([...problems.values()]);
  return scenarios;
}
