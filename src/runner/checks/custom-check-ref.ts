import type { SourceLocation } from '../../config/errors.js';
import type { CustomCheckFunction } from '../../verdicts/index.js';

/** A scenario's `custom` check, resolved at load: where its module is and where it was written. */
export interface CustomCheckRef {
  /** Index in `expect.checks`. */
  index: number;
  /** The module path as written (shown in results). */
  written: string;
  /** Absolute path of the module. */
  module: string;
  params: unknown;
  /** Where `module` and `params` were written, for load errors (omitted params: at the `custom` check). */
  moduleAt: SourceLocation;
  paramsAt: SourceLocation;
  /**
   * For a scenario rendered from a dataset row: the paths (as a ConfigError names them) of the
   * strings that were exactly one `{{ vars.* }}` and of those using one, and whether the row came
   * from a CSV file. A paramsSchema type error at a whole template says the dataset rule behind
   * it (template-type-hint.ts); one at a templated value is said for each row (row-dependent-problem.ts).
   */
  rowTemplates?: { wholes: ReadonlySet<string>; templated: ReadonlySet<string>; fromCsv: boolean };
  /** The loaded function, set by loadCustomChecks. */
  run?: CustomCheckFunction;
}
