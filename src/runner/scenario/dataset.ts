import { columnNameHint } from './column-name-hint.js';
import { quoteCapped } from '../../config/cap-text.js';
import { describeValue } from '../../config/describe-value.js';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator } from '../../config/assert-format.js';
import { AgentcheckError, collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { readUpTo } from '../../config/read-up-to.js';
import { utf8Text } from '../../config/utf8-text.js';
import { deepestPath } from '../../config/deepest-path.js';
import { formatPath, MAX_CONFIG_BYTES, MAX_DEPTH, type PathSegments } from '../../config/source.js';
import { readStrictJson } from '../../config/strict-json.js';
import { isRoundedNumber, LARGE_ID_ADVICE } from '../../config/number-checks.js';
import { CsvSyntaxError, parseCsv } from './csv.js';
import { ROW_WORDS } from './scenario-schema.js';
import { templateStep } from '../../engine/template/template-path.js';
import { TEMPLATE_NAME_SOURCE } from '../../engine/template/interpolate.js';

/** One dataset row: its variables and where it was written (`orders.csv:7`, `dataset[2]`). */
export interface DatasetRow {
  where: string;
  vars: Record<string, unknown>;
  /** Read from a CSV file: every value is text. */
  fromCsv?: true;
}

/**
 * Reads a scenario's `dataset` (docs/formats.md, "Datasets"): a `.csv` file with a header row,
 * a `.jsonl` file of one object a line, or an inline list of objects. A file path is relative
 * to the scenario file; `locate` points at the `dataset` field. Given `badRows`, the problems of
 * single rows (an inline row or a .jsonl line that is no row) go there when other rows are sound,
 * and those rows are returned, to be checked beside them; else they are thrown.
 */
export function loadDataset(dataset: unknown, dir: string, locate: Locator, badRows?: ConfigError[]): DatasetRow[] {
  if (Array.isArray(dataset)) {
    // Every row that is no mapping, in one pass, as a .jsonl file's lines are.
    const problems = dataset.flatMap((row, index) => (isRow(row) ? [] : [locate([index], `expected ${ROW_WORDS}, got ${describeValue(row)}`)]));
    const rows = dataset.flatMap((row, index) => (isRow(row) ? [{ where: `dataset[${index}]`, vars: row as Record<string, unknown> }] : []));
    return soundRows(rows, problems, badRows);
  }
  const given = dataset as string;
  const file = resolve(dir, given);
  const text = readDatasetFile(file, given, locate);
  let rows: DatasetRow[];
  if (/\.csv$/i.test(given)) rows = csvRows(text, given, locate);
  else if (/\.jsonl$/i.test(given)) rows = jsonlRows(text, given, locate, badRows);
  else throw locate([], `dataset ${quoteCapped(given)} is neither .csv nor .jsonl; expected a .csv file, a .jsonl file or a list of rows`);
  if (!rows.length) throw locate([], `dataset ${given} has no rows; a scenario over an empty dataset would silently run nothing`);
  return rows;
}

function isRow(row: unknown): boolean {
  return row !== null && typeof row === 'object' && !Array.isArray(row);
}

/** The sound rows, the others' problems kept in `badRows` when given and some row is sound, else thrown. */
function soundRows(rows: DatasetRow[], problems: ConfigError[], badRows: ConfigError[] | undefined): DatasetRow[] {
  if (!badRows || !rows.length) throwConfigErrors(problems);
  badRows?.push(...problems);
  return rows;
}

function readDatasetFile(file: string, given: string, locate: Locator): string {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    throw locate([], `dataset file not found: ${file}`);
  }
  if (stats.size > MAX_CONFIG_BYTES) throw locate([], `dataset ${file} is ${stats.size} bytes; datasets are limited to ${MAX_CONFIG_BYTES} bytes`);
  let bytes: Buffer;
  try {
    bytes = readUpTo(file, stats, MAX_CONFIG_BYTES);
  } catch (error) {
    throw locate([], `dataset ${file} cannot be read: ${(error as Error).message}`);
  }
  if (bytes.length > MAX_CONFIG_BYTES) throw locate([], `dataset ${file} is larger than ${MAX_CONFIG_BYTES} bytes, the limit of datasets`);
  try {
    return utf8Text(bytes, given);
  } catch (error) {
    if (error instanceof AgentcheckError) throw locate([], `dataset ${error.message}`);
    throw error;
  }
}

function csvRows(text: string, given: string, locate: Locator): DatasetRow[] {
  try {
    return parseCsv(text).map((record) => ({ where: `${given}:${record.line}`, vars: record.values, fromCsv: true as const }));
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throwConfigErrors([error, ...error.others].map((problem) => locate([], `${given}:${problem.line}: ${problem.message}`)));
    throw error;
  }
}

/**
 * One row per non-blank line, each read as strictly as a `.json` file (readStrictJson: no key
 * twice, no number that would be rounded), each problem at `FILE:LINE:COL`; every line's problem
 * in one pass.
 */
function jsonlRows(text: string, given: string, locate: Locator, badRows: ConfigError[] | undefined): DatasetRow[] {
  const rows: DatasetRow[] = [];
  const problems: ConfigError[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const where = `${given}:${index + 1}`;
    // The line was read without its leading blanks: a column counts them back in.
    const indent = raw.length - raw.trimStart().length;
    const read = readStrictJson(line);
    if ('problems' in read) {
      for (const { column, message } of read.problems) {
        const at = column === undefined ? where : `${where}:${column + indent}`;
        // A row is free-form data: a number beyond 2^53 there is an id, which a string holds exactly.
        const hint = message.startsWith('is not valid JSON:') ? '; expected one JSON object a line' : isRoundedNumber(message) ? `; ${LARGE_ID_ADVICE}` : '';
        problems.push(locate([], `${at}: ${message}${hint}`));
      }
      return;
    }
    const { value } = read;
    // As deep as a loaded file may be (docs/security.md): deeper, templating it would overflow the stack.
    const deep = deepestPath(value, MAX_DEPTH);
    if (deep) {
      problems.push(
        locate(
          [],
          `${where}: is nested more than ${MAX_DEPTH} levels deep (under ${formatPath(deep.slice(0, 1)) || 'the top'}); dataset rows are refused beyond that`,
        ),
      );
      return;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      // At the value's first character, as an invalid line is located (docs/formats.md).
      problems.push(locate([], `${where}:${1 + indent}: expected a JSON object of variables, got ${JSON.stringify(value).slice(0, 60)}`));
      return;
    }
    rows.push({ where, vars: value as Record<string, unknown> });
  });
  return soundRows(rows, problems, badRows);
}

/** `{{ vars.NAME }}` or `{{ vars.NAME.KEY }}` (into a JSONL row's object), spaces optional. */
// NAME and KEY as the engine's templates read them (letters, digits, _, $ and -; an `order-id` column works).
const TEMPLATE = new RegExp(String.raw`\{\{\s*vars\.(${TEMPLATE_NAME_SOURCE})\s*\}\}`, 'g');
/** A string that is exactly one template: it takes the variable's value with its type (JSONL numbers stay numbers). */
export const WHOLE_TEMPLATE = /^\{\{\s*vars\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*\}\}$/;
/** What starts like a template once the templates are taken out: a filter, brackets, an unclosed brace. */
const NOT_A_TEMPLATE = /\{\{\s*vars\b[^}]*\}?\}?/g;
/**
 * A template of another name (`{{ var.id }}`, `{{ env.HOME }}`, `{{ name }}`): in a scenario with a
 * dataset it is a typo, and sent as it stands it would test some other message. An inline `delta`
 * keeps its own: its tools' templates (`{{ args.id }}`) are the engine's.
 */
const OTHER_TEMPLATE = new RegExp(String.raw`\{\{\s*(?!vars\b)${TEMPLATE_NAME_SOURCE}\s*(?:\|[^{}]*)?\}\}`, 'g');
/** Anything that looks like a template, to refuse `{{ vars.x }}` in a scenario without a dataset. */
export const ANY_TEMPLATE = /\{\{\s*vars\./;

/**
 * Renders every string of `value` with the row's variables. A variable the row lacks is a
 * located error naming the row; `at` is the path of `value` in its document.
 */
export function renderTemplates(value: unknown, row: DatasetRow, at: PathSegments, locate: Locator): unknown {
  // Each string on its own: every template problem of the value in one pass.
  const problems: ConfigError[] = [];
  const rendered = renderEach(value, row, at, locate, problems, 'scenario');
  throwConfigErrors(problems);
  return rendered;
}

/** Where a value stands: the scenario itself (its top level, then below it), or its inline delta, whose tools have templates of their own. */
type RenderScope = 'scenario' | 'below' | 'delta';

function renderEach(value: unknown, row: DatasetRow, at: PathSegments, locate: Locator, problems: ConfigError[], scope: RenderScope): unknown {
  if (typeof value === 'string') {
    let rendered: unknown = value;
    collectConfigErrors(problems, () => {
      rendered = renderString(value, row, at, locate, scope !== 'delta');
    });
    return rendered;
  }
  const inner = scope === 'scenario' ? 'below' : scope;
  if (Array.isArray(value)) return value.map((item, index) => renderEach(item, row, [...at, index], locate, problems, inner));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        // Keys are names, never rendered: a template there would be sent as it stands.
        if (ANY_TEMPLATE.test(key)) problems.push(locate([...at, key], KEY_TEMPLATE, true));
        return [key, renderEach(item, row, [...at, key], locate, problems, scope === 'scenario' && key === 'delta' ? 'delta' : inner)];
      }),
    );
  }
  return value;
}

const KEY_TEMPLATE = 'a {{ vars.* }} template in a key is not rendered (keys are names); put the template in a value';

/** The variable each "the row has no variable" problem is about (renderTemplates' own problems). */
const MISSING_VARIABLES = new WeakMap<ConfigError, string>();

/** The variable a renderTemplates problem says the row lacks, or undefined for any other problem. */
export function missingVariable(problem: ConfigError): string | undefined {
  return MISSING_VARIABLES.get(problem);
}

function renderString(value: string, row: DatasetRow, at: PathSegments, locate: Locator, onlyRowTemplates: boolean): unknown {
  const lookup = (path: string): unknown => {
    const [name, ...keys] = path.split('.');
    if (!Object.hasOwn(row.vars, name)) {
      const names = Object.keys(row.vars);
      const known = names.map((key) => quoteCapped(key)).join(', ') || '(none)';
      const hint = columnNameHint(names, name, path);
      const problem = locate(at, `${row.where}: the row has no variable ${quoteCapped(name)}, which the scenario uses here; the row has: ${known}${hint}`);
      MISSING_VARIABLES.set(problem, name);
      throw problem;
    }
    let current = row.vars[name];
    keys.forEach((key, index) => {
      // As the engine's templates walk (`.0` for a list item; never a list's `length`).
      const next = templateStep(current, key);
      if (!next.found) {
        throw locate(
          at,
          `${row.where}: the row's variable ${quoteCapped(name)} has no ${quoteCapped([name, ...keys.slice(0, index + 1)].join('.'))}, which the scenario uses here`,
        );
      }
      current = next.value;
    });
    return current;
  };
  // Every template of the string on its own, so a misspelt name does not hide a malformed template.
  const problems: ConfigError[] = [];
  // What is left that starts like a template is a typo (a filter, brackets, an unclosed brace):
  // sent as it stands, it would test some other message.
  // Each of them: one string may hold several.
  for (const [left] of value.replace(TEMPLATE, '').matchAll(NOT_A_TEMPLATE)) {
    problems.push(
      locate(
        at,
        `${quoteCapped(left)} is not a dataset template: expected {{ vars.NAME }} or {{ vars.NAME.KEY }}, NAME of letters, digits, _, $ and - starting with a letter, _ or $, KEY of the same characters (a column named with a space or a dot, or starting with a digit, cannot be read: rename it); no filters, brackets or other expressions`,
      ),
    );
  }
  if (onlyRowTemplates) {
    for (const [other] of value.matchAll(OTHER_TEMPLATE)) {
      problems.push(
        locate(
          at,
          `${quoteCapped(other)} is not a dataset template: a scenario with a dataset reads its row as {{ vars.NAME }} or {{ vars.NAME.KEY }}, and sends no other template as written (to send this text as it is, give it as a row's value)`,
        ),
      );
    }
  }
  const whole = WHOLE_TEMPLATE.exec(value);
  let rendered: unknown = value;
  if (whole) collectConfigErrors(problems, () => (rendered = lookup(whole[1])));
  else {
    rendered = value.replace(TEMPLATE, (match, path: string) => {
      let text = match;
      collectConfigErrors(problems, () => (text = asText(lookup(path))));
      return text;
    });
  }
  throwConfigErrors(problems);
  return rendered;
}

/** The path of the first string using `{{ vars.* }}` in `value`, or null. */
export function findTemplate(value: unknown, at: PathSegments = []): PathSegments | null {
  const found = templatePath(value);
  return found ? [...at, ...found] : null;
}

// Paths are built only on the way back from a hit: every scenario of a suite is searched.
function templatePath(value: unknown): Array<string | number> | null {
  if (typeof value === 'string') return ANY_TEMPLATE.test(value) ? [] : null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = templatePath(value[index]);
      if (found) return [index, ...found];
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      if (ANY_TEMPLATE.test(key)) return [key];
      const found = templatePath((value as Record<string, unknown>)[key]);
      if (found) return [key, ...found];
    }
  }
  return null;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  return JSON.stringify(value);
}
