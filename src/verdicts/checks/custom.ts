import type { Locator } from '../../config/assert-format.js';
import { quoteCapped } from '../../config/cap-text.js';
import { closestWord } from '../../config/did-you-mean.js';
import { result, type Check } from './check.js';

const KIND = 'custom';

/** `custom: {module, params}` as written in a scenario. */
export interface CustomCheckParams {
  /** Path of a .mjs / .js module, relative to the scenario file. */
  module: string;
  params?: unknown;
}

/**
 * `custom: {module: ./checks/x.mjs, params: {...}}`: a user function decides (docs/custom-checks.md).
 * Only the shape is checked here; the runner loads the module and runs it through
 * runCustomCheck, so this `run` is reached only when no module was loaded.
 */
export const custom: Check<CustomCheckParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    if (!params || typeof params !== 'object' || Array.isArray(params)) throw locate([], 'expected {module: ./checks/my-check.mjs, params: {...}}');
    for (const key of Object.keys(params)) {
      if (key !== 'module' && key !== 'params') {
        const near = closestWord(key, ['module', 'params']);
        throw locate([key], `unknown key ${quoteCapped(key)}${near ? ` (did you mean ${quoteCapped(near)}?)` : ''}; expected one of: module, params`, true);
      }
    }
    const { module } = params as { module?: unknown };
    if (typeof module !== 'string' || !module)
      throw locate(['module'], 'expected the path of a JavaScript module (.mjs or .js), relative to the scenario file');
    if (/\.[mc]?tsx?$/i.test(module)) {
      throw locate(
        ['module'],
        `${quoteCapped(module)} is TypeScript, which Node cannot import without a loader; compile it to .mjs/.js (e.g. with tsc) and name the compiled file`,
      );
    }
  },
  run(params, _evidence, id) {
    return result(KIND, id, 'error', `the module ${params.module} was not loaded (custom checks run through the suite runner)`);
  },
};
