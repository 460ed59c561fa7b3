import { resolve } from 'node:path';
import type { Locator } from '../../config/assert-format.js';
import { throwConfigErrors, type ConfigError, type SourceLocation } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import type { CustomCheckParams } from '../../verdicts/index.js';
import { checkModuleFileProblem } from '../checks/check-module-file.js';
import type { CustomCheckRef } from '../checks/custom-check-ref.js';

/**
 * The scenario's `custom` checks with their modules resolved against the scenario's folder; a
 * module path that names no JavaScript file (missing, a folder, another language) is refused
 * here, so `validate` says it too; the runner imports the rest before any run.
 */
export function customCheckRefs(checks: ReadonlyArray<Record<string, unknown>>, dir: string, locate: Locator): CustomCheckRef[] {
  const refs: CustomCheckRef[] = [];
  const missing: ConfigError[] = [];
  checks.forEach((check, index) => {
    if (!('custom' in check)) return;
    const { module, params } = check.custom as CustomCheckParams;
    const at = ['expect', 'checks', index, 'custom'];
    const absolute = resolve(dir, module);
    const problem = checkModuleFileProblem(absolute, module);
    if (problem !== undefined) return void missing.push(locate([...at, 'module'], problem));
    const where = (path: PathSegments): SourceLocation => {
      const { file, line, column, path: jsonPath } = locate(path, '');
      return { file, line, column, path: jsonPath };
    };
    refs.push({
      index,
      written: module,
      module: absolute,
      params,
      moduleAt: where([...at, 'module']),
      // Omitted params have no node: the path still says params, line:col the `custom` check.
      paramsAt: where([...at, 'params']),
    });
  });
  throwConfigErrors(missing);
  return refs;
}
