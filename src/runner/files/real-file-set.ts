import { realPathOf } from './walk-files.js';

/**
 * Files met so far, keyed by real path: one file reached under two names (through a symbolic
 * link to a folder above it, say) is read once. `run` finds its scenario files with it and
 * `validate` checks each file with it, so both count a file alike (docs/cli.md).
 */
export class RealFileSet {
  private readonly real = new Set<string>();

  /** Adds `file`; false when it was met already, under this name or another. */
  add(file: string): boolean {
    const real = realPathOf(file);
    if (this.real.has(real)) return false;
    this.real.add(real);
    return true;
  }

  /** Whether `file` was met already, under this name or another. */
  has(file: string): boolean {
    return this.real.has(realPathOf(file));
  }
}
