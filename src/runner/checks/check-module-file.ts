import { existsSync, statSync } from 'node:fs';
import { specialFileKind } from '../../config/special-file.js';

/** The extensions Node imports as JavaScript without a loader. */
const JAVASCRIPT = /\.[mc]?js$/;

/**
 * Why a custom check's module path names no importable JavaScript file, or undefined when it
 * does. Checked when a scenario loads, so `validate` and `run` refuse the same paths with the
 * same words (docs/custom-checks.md); TypeScript is refused earlier, with its own advice.
 */
export function checkModuleFileProblem(absolute: string, written: string): string | undefined {
  if (!existsSync(absolute)) return `custom check module not found: ${absolute}`;
  if (statSync(absolute).isDirectory())
    return `custom check module ${written} is a folder; name the module file in it (.mjs, or .js in a package with "type": "module")`;
  // Importing a named pipe would block for ever.
  const special = specialFileKind(statSync(absolute));
  if (special) return `custom check module ${written} is ${special}, not a regular file; name a .mjs file`;
  if (!JAVASCRIPT.test(absolute))
    return `custom check module ${written} is not a JavaScript module; name a .mjs file (or .js in a package with "type": "module", or .cjs)`;
  return undefined;
}
