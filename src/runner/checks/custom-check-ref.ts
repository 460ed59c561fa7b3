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
  /** The loaded function, set by loadCustomChecks. */
  run?: CustomCheckFunction;
}
