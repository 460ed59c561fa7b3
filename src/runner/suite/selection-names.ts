import type { SourceLocation } from '../../config/errors.js';
import { REPORTER_NAMES } from '../reporters/index.js';

/** The selection fields whose problems are found while planning (after the fields' own checks). */
export type PlannedField = 'variants' | 'repeat' | 'maxRuns';

/**
 * How a suite's selection fields are named in its errors: a library caller gave loadSuite the
 * fields (`loadSuite at variants`), the CLI gave flags (`--variant`), so each is told what it gave.
 */
export interface SelectionNames {
  /** Where a problem with the field is placed. */
  at(field: PlannedField): SourceLocation;
  /** The field as advice names it (`maxRuns`, `--max-runs`). */
  name(field: PlannedField): string;
  /** True for the CLI's flags, whose errors about what the config lists name the config file. */
  flags: boolean;
  /** Advice added to a path given that does not exist. */
  missingPathHint(given: string): string;
}

const FLAGS: Record<PlannedField, string> = { variants: '--variant', repeat: '--repeat', maxRuns: '--max-runs' };

/** loadSuite's own fields (docs/report-format.md). */
export const LIBRARY_NAMES: SelectionNames = {
  at: (field) => ({ file: 'loadSuite', path: field }),
  name: (field) => field,
  flags: false,
  missingPathHint: () => '',
};

/** agentcheck run's and validate's flags (docs/cli.md). */
export const CLI_NAMES: SelectionNames = {
  at: (field) => ({ file: FLAGS[field] }),
  name: (field) => FLAGS[field],
  flags: true,
  missingPathHint: flagValueHint,
};

/** A bare word given as a path is often a variant, tag or reporter name written after the paths. */
function flagValueHint(given: string): string {
  if ((REPORTER_NAMES as readonly string[]).includes(given))
    return ` (if "${given}" is a reporter: --reporter takes a comma list, as in --reporter json,${given})`;
  if (/^[\w-]+$/.test(given)) {
    return ` (if "${given}" is a variant or tag name: write the names right after --variant or --tag, before the paths, or join them with commas, as in --tag smoke,${given})`;
  }
  return '';
}
