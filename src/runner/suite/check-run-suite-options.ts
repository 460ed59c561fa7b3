import { isAbsolute } from 'node:path';
import { assertFormat, memoryLocator } from '../../config/assert-format.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import { describeValue } from '../../config/describe-value.js';
import { unknownOptionKeys } from '../../config/option-keys.js';
import { withoutUndefined } from '../../config/without-undefined.js';
import { mcpServersProblem } from '../../engine/mcp/mcp-servers-problem.js';
import { skillsSchema } from '../../engine/skills-options-schema.js';
import { CASSETTE_MODES } from '../cassettes/cassette.js';
import { ROW_STATUSES, type ScenarioRow } from '../report/report.js';
import { MAX_TIMEOUT_MS } from './timeouts.js';

const FILE = 'runSuite options';

/** A problem with one option as text, or null. */
export type Check = (value: unknown) => string | null;

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');
/** A check that `test` passes, else `expected <what>, got <the value>`. */
export const expect =
  (what: string, test: (value: unknown) => boolean): Check =>
  (value) =>
    test(value) ? null : `expected ${what}, got ${describeValue(value)}`;
/** A test for a whole number from `min` to `max`. */
export const wholeNumber = (min: number, max: number) => (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/**
 * What each runSuite option must be (docs/report-format.md, From code); `selection` is checked
 * field by field. runLoadedScenario takes those that apply to one run from here too.
 */
export const RUN_SUITE_OPTIONS: Record<string, Check> = {
  concurrency: expect('a whole number >= 1', wholeNumber(1, Number.MAX_SAFE_INTEGER)),
  timeoutMs: expect(`a whole number of ms from 1 to ${MAX_TIMEOUT_MS}`, wholeNumber(1, MAX_TIMEOUT_MS)),
  skills: expect('skill options {forced?, overlay?, delivery?}', isObject),
  env: expect(
    'an environment {NAME: value}',
    (value) => isObject(value) && Object.values(value).every((item) => item === undefined || typeof item === 'string'),
  ),
  cassettes: expect(
    `cassette settings {mode: ${CASSETTE_MODES.join(' | ')}, dir: an absolute folder}`,
    // Absolute: a relative folder would be read from wherever the process happens to be.
    (value) => isObject(value) && CASSETTE_MODES.includes(value.mode as never) && typeof value.dir === 'string' && isAbsolute(value.dir),
  ),
  mcpServers: mcpServersProblem,
  signal: expect('an AbortSignal', (value) => value instanceof AbortSignal),
  hurry: expect('an AbortSignal', (value) => value instanceof AbortSignal),
  onRowDone: expect('a function (row, done, total)', (value) => typeof value === 'function'),
  onSpans: expect('a function (spans)', (value) => typeof value === 'function'),
  keepRow: expect('a function (row, index) returning the row to keep', (value) => typeof value === 'function'),
  releaseRuns: expect('true or false', (value) => typeof value === 'boolean'),
  releasePlan: expect('true or false', (value) => typeof value === 'boolean'),
  startedAt: expect('a Date', (value) => value instanceof Date && !Number.isNaN(value.getTime())),
  selection: expect('the selection to record {paths?, config?, shard?, grep?, tags?, overlay?, cwd?}', isObject),
};

const isShard = (value: unknown) =>
  value === null ||
  (isObject(value) &&
    Object.keys(value).every((key) => key === 'index' || key === 'total') &&
    wholeNumber(1, 10_000)(value.index) &&
    wholeNumber(1, 10_000)(value.total));

/** What each `selection` field records (report.suite, docs/report-format.md). */
const SELECTION: Record<string, Check> = {
  paths: expect('a list of paths (strings)', isStringList),
  config: expect('the config file path or null', (value) => value === null || typeof value === 'string'),
  shard: expect('{index, total} or null', isShard),
  grep: expect('a string or null', (value) => value === null || typeof value === 'string'),
  tags: expect('a list of tags (strings)', isStringList),
  overlay: expect('a list of skill folders (strings)', isStringList),
  cwd: expect('a folder path', (value) => typeof value === 'string' && value !== ''),
};

/**
 * Problems of `table`'s fields in `given` (an unknown key, a wrong value; a `required` one left
 * out), each a ConfigError of `file` at `<prefix><key>`; `skills` are held to the suite config's
 * rules, with its messages.
 */
export function fieldProblems(
  given: Record<string, unknown>,
  table: Record<string, Check>,
  prefix: string,
  file = FILE,
  required: readonly string[] = [],
): ConfigError[] {
  const problems = unknownOptionKeys(given, Object.keys(table), file, prefix);
  for (const [key, check] of Object.entries(table)) {
    const value = given[key];
    const problem = value === undefined && !required.includes(key) ? null : check(value);
    if (problem) problems.push(new ConfigError({ file, path: `${prefix}${key}` }, problem));
  }
  if ('skills' in table && isObject(given.skills)) {
    collectConfigErrors(problems, () => assertFormat(skillsSchema, withoutUndefined(given.skills), memoryLocator(file, [`${prefix}skills`])));
  }
  return problems;
}

/**
 * Checks runSuite's plan and options once per call, before any run: every wrong one is a
 * ConfigError naming it (`runSuite options at timeoutMs: expected ...`), never a TypeError from
 * inside the runs, a row error for each run, or a value ignored for its default.
 */
export function checkRunSuiteArguments(plan: unknown, options: unknown): void {
  const problems: ConfigError[] = [];
  // A plan is what loadSuite returns; anything else would fail reading its runs.
  if (!isObject(plan) || !Array.isArray(plan.runs) || !Array.isArray(plan.scenarios) || !Array.isArray(plan.variants)) {
    problems.push(new ConfigError({ file: 'runSuite', path: 'plan' }, `expected a suite plan (what loadSuite(selection) returns), got ${describeValue(plan)}`));
  } else if (plan.runs.includes(undefined)) {
    // releasePlan / releaseRuns set each run to undefined once its row existed (docs/report-format.md).
    problems.push(
      new ConfigError(
        { file: 'runSuite', path: 'plan' },
        'the plan was released: an earlier runSuite(plan, {releasePlan: true}) or {releaseRuns: true} let its runs go as their rows were made; load the suite again with loadSuite(selection) to run it again',
      ),
    );
  } else if (!plan.runs.every((run) => isObject(run) && isObject(run.scenario))) {
    problems.push(
      new ConfigError(
        { file: 'runSuite', path: 'plan.runs' },
        'expected the planned runs loadSuite(selection) made, each {scenario, variant, revision, repeat}',
      ),
    );
  }
  if (options !== undefined && !isObject(options)) {
    problems.push(new ConfigError({ file: 'runSuite', path: 'options' }, `expected an options object, got ${describeValue(options)}`));
  } else if (options) {
    problems.push(...fieldProblems(options, RUN_SUITE_OPTIONS, ''));
    if (isObject(options.selection)) problems.push(...fieldProblems(options.selection, SELECTION, 'selection.'));
  }
  throwConfigErrors(problems);
}

/**
 * What keepRow returned for `row` (the `index`th in plan order), checked as each row is kept: a row
 * for the report (the row itself or one in its place, with an id, variant, repeat and status),
 * else a ConfigError at keepRow naming the row, never a TypeError from the report built later.
 */
export function checkKeptRow(kept: unknown, row: ScenarioRow, index: number): void {
  const problem = keptRowProblem(kept, row);
  if (problem === undefined) return;
  throw new ConfigError(
    { file: FILE, path: 'keepRow' },
    `expected a function (row, index) returning the row to keep (the row itself, or a row in its place with its id, variant, repeat and a status: ${ROW_STATUSES.join(', ')}), but for row ${index} (${row.id} [${row.variant}] #${row.repeat}) ${problem}`,
  );
}

/** What is wrong with a kept row: another row's id, variant or repeat would misplace it in the report. */
function keptRowProblem(kept: unknown, row: ScenarioRow): string | undefined {
  if (kept instanceof Promise) return 'it returned a Promise (keepRow runs synchronously: return the row itself)';
  if (!isObject(kept)) return `it returned ${describeValue(kept)}`;
  for (const key of ['id', 'variant', 'repeat'] as const) {
    if (kept[key] !== row[key]) return `it returned a row with ${key} ${describeValue(kept[key])}, not the row's ${describeValue(row[key])}`;
  }
  if (!ROW_STATUSES.includes(kept.status as never)) return `it returned a row with status ${describeValue(kept.status)}`;
  return undefined;
}
