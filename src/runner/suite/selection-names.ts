import type { SourceLocation } from '../../config/errors.js';

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
}

const FLAGS: Record<PlannedField, string> = { variants: '--variant', repeat: '--repeat', maxRuns: '--max-runs' };

/** loadSuite's own fields (docs/report-format.md). */
export const LIBRARY_NAMES: SelectionNames = {
  at: (field) => ({ file: 'loadSuite', path: field }),
  name: (field) => field,
  flags: false,
};

/** agentcheck run's and validate's flags (docs/cli.md). */
export const CLI_NAMES: SelectionNames = {
  at: (field) => ({ file: FLAGS[field] }),
  name: (field) => FLAGS[field],
  flags: true,
};
