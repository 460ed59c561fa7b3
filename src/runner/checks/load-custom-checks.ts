import { pathToFileURL } from 'node:url';
import { ConfigError, throwConfigErrors, type SourceLocation } from '../../config/errors.js';
import { paramsSchemaProblems } from '../../config/json-schema.js';
import { userSchemaProblem } from '../../config/user-schema-problem.js';
import { joinPaths } from '../../config/format-path.js';
import { formatPath } from '../../config/source.js';
import type { CustomCheckFunction } from '../../verdicts/index.js';
import { inDatasetRow } from '../scenario/expand-dataset.js';
import { atTemplatedValue } from '../scenario/row-dependent-problem.js';
import { templateTypeHint, withHint } from '../scenario/template-type-hint.js';
import type { Scenario } from '../scenario/scenario.js';
import { guardProcessExit, ProcessExitRefused } from '../exit-guard.js';
import { checkModuleFileProblem } from './check-module-file.js';
import type { CustomCheckRef } from './custom-check-ref.js';

/** A custom check module after import: its function and optional params schema. */
interface CheckModule {
  run: CustomCheckFunction;
  paramsSchema?: object;
}

/** Imported modules by absolute path: each module is imported and checked once per suite. */
export type CheckModuleCache = Map<string, Promise<CheckModule>>;

/**
 * Imports the custom check modules of these scenarios (docs/custom-checks.md) and sets each
 * ref's function. A module that is missing, fails to import, exports no function or has a
 * `paramsSchema` the scenario's params do not satisfy is a ConfigError located in the scenario.
 */
export async function loadCustomChecks(scenarios: readonly Scenario[], cache: CheckModuleCache = new Map()): Promise<void> {
  // Every check's problem is listed at once (docs/cli.md), each module's once.
  const problems: ConfigError[] = [];
  // Dataset rows share their entry's checks: a problem at a templated value is said for each row
  // that has it, any other once, for the first row that shows it (docs/formats.md, "Datasets").
  const said = new Set<string>();
  for (const scenario of scenarios) {
    for (const ref of scenario.customChecks ?? []) {
      if (ref.run) continue;
      let loading = cache.get(ref.module);
      if (!loading) cache.set(ref.module, (loading = importCheckModule(ref)));
      let loaded: CheckModule;
      try {
        loaded = await loading;
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        problems.push(error);
        continue;
      }
      for (const { problem, hint, ofRow } of loaded.paramsSchema ? paramsProblems(ref, loaded.paramsSchema) : []) {
        const key = `${ofRow ? scenario.datasetRow : ''}\n${problem.message}`;
        if (said.has(key)) continue;
        said.add(key);
        problems.push(scenario.datasetRow === undefined ? problem : withHint(inDatasetRow(problem, scenario.datasetRow), hint));
      }
      ref.run = loaded.run;
    }
  }
  throwConfigErrors(problems);
}

// The CLI bundle runs as a CommonJS script (docs/architecture.md, Build), where import() cannot
// load an ES module; the launcher hands it an import() of its own under this name.
declare const AGENTCHECK_IMPORT: ((url: string) => Promise<unknown>) | undefined;
const importModule = typeof AGENTCHECK_IMPORT === 'function' ? AGENTCHECK_IMPORT : (url: string) => import(url);

async function importCheckModule(ref: CustomCheckRef): Promise<CheckModule> {
  const fail = (expected: string) => located(ref.moduleAt, expected);
  // Checked at load too; the file may have gone (or changed) since.
  const problem = checkModuleFileProblem(ref.module, ref.written);
  if (problem !== undefined) throw fail(problem);
  let exports: Record<string, unknown>;
  // A module that calls process.exit() as it is imported would end the process before any row
  // or report: refused there as in a check's function (docs/custom-checks.md, Loading).
  const releaseExit = guardProcessExit();
  try {
    exports = (await importModule(pathToFileURL(ref.module).href)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ProcessExitRefused) {
      throw fail(
        `custom check module ${ref.written} called ${error.call} while being imported; a check module may not end the agentcheck process (throw an error instead, or export the check and let it return a result)`,
      );
    }
    throw fail(`custom check module ${ref.written} could not be imported: ${(error as Error).message ?? String(error)}`);
  } finally {
    releaseExit();
  }
  // A CommonJS module's `module.exports` arrives as `default`; Node lists few of its keys as named
  // exports (`module.exports = {check: ...}` gives none), so `check` and `paramsSchema` are read there too.
  const commonJs = isObject(exports.default) ? exports.default : {};
  const run = typeof exports.default === 'function' ? exports.default : typeof exports.check === 'function' ? exports.check : commonJs.check;
  if (typeof run !== 'function') {
    throw fail(
      `custom check module ${ref.written} exports no check function; expected \`export default function (evidence, params) {...}\` or \`export function check(evidence, params) {...}\` (CommonJS: \`module.exports = function ...\` or \`module.exports = {check}\`)`,
    );
  }
  const paramsSchema = exports.paramsSchema ?? commonJs.paramsSchema;
  if (paramsSchema !== undefined) {
    const problem = userSchemaProblem(paramsSchema);
    if (problem) throw fail(`custom check module ${ref.written} exports a paramsSchema that is not a valid JSON Schema: ${problem}`);
  }
  return { run: run as CustomCheckFunction, paramsSchema: paramsSchema as object | undefined };
}

/**
 * The scenario's params against the module's paramsSchema, every problem; omitted params are `{}`.
 * Each comes with the dataset hint for a type error at a whole-string template (rowTemplates),
 * and `ofRow` when it is at a templated value, the row's own.
 */
function paramsProblems(ref: CustomCheckRef, schema: object): Array<{ problem: ConfigError; hint: string | undefined; ofRow: boolean }> {
  // Without params the fix is to add `params:`, not keys beside `module`: say what was checked.
  const against =
    ref.params === undefined ? `no params given, so {} was checked against the paramsSchema of ${ref.written}` : `the paramsSchema of ${ref.written}`;
  return paramsSchemaProblems(schema, ref.params ?? {}).map((problem) => {
    const inner = formatPath(problem.path);
    // The value's own path as the dataset's template paths name it (formatPath joined on).
    const at = ref.paramsAt.path === undefined ? undefined : joinPaths(ref.paramsAt.path, inner);
    const templates = ref.rowTemplates;
    const hint = templates && at !== undefined && templates.wholes.has(at) ? templateTypeHint(problem.expected, templates.fromCsv) : undefined;
    // An unknown key is no row's doing, though its value is templated.
    const ofRow = templates !== undefined && !problem.atKey && atTemplatedValue(at, templates.templated);
    return { problem: located(ref.paramsAt, `${inner ? `${inner}: ` : ''}${problem.expected} (${against})`), hint, ofRow };
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function located(at: SourceLocation, expected: string): ConfigError {
  return new ConfigError({ file: at.file, line: at.line, column: at.column, path: at.path }, expected);
}
