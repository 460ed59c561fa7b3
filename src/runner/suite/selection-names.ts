import type { SourceLocation } from '../../config/errors.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { skillFolderProblems } from '../../skills/skill-folder-problems.js';
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
  /** Advice added to a path given that does not exist, or to a folder given that holds no scenario. */
  pathHint(given: string, cwd: string): string;
  /**
   * The flag that adds skill folders to the suite's runs (`--overlay`), for advice that points to
   * it; none where the caller has no such option to give (a library caller, MCP validate).
   */
  overlayFlag?: string;
}

const FLAGS: Record<PlannedField, string> = { variants: '--variant', repeat: '--repeat', maxRuns: '--max-runs' };

/** loadSuite's own fields (docs/report-format.md). */
export const LIBRARY_NAMES: SelectionNames = {
  at: (field) => ({ file: 'loadSuite', path: field }),
  name: (field) => field,
  pathHint: () => '',
};

/** agentcheck run's and validate's flags (docs/cli.md). */
export const CLI_NAMES: SelectionNames = {
  at: (field) => ({ file: FLAGS[field] }),
  name: (field) => FLAGS[field],
  pathHint: flagValueHint,
  overlayFlag: '--overlay',
};

/**
 * A bare word given as a path is often a variant, tag or reporter name written after the paths;
 * a skill folder given as one, a second folder written after --overlay's one.
 */
function flagValueHint(given: string, cwd: string): string {
  const path = resolve(cwd, given);
  if (existsSync(path)) return isSkillFolder(path) ? overlayHint(given) : '';
  if ((REPORTER_NAMES as readonly string[]).includes(given))
    return ` (if "${given}" is a reporter: --reporter takes a comma list, as in --reporter json,${given})`;
  if (/^[\w-]+$/.test(given)) {
    return ` (if "${given}" is a variant or tag name: write the names right after --variant or --tag, before the paths, or join them with commas, as in --tag smoke,${given})`;
  }
  return '';
}

/** --overlay takes one folder per use: a second one after it reads as a path to run. */
function overlayHint(given: string): string {
  return ` (${given} is a skill folder: if it is meant for --overlay, which takes one folder, join the folders with commas, as in --overlay FOLDER,${given}, or give the flag again: --overlay ${given})`;
}

/** A folder that --overlay would take: its SKILL.md loads without a problem. */
function isSkillFolder(path: string): boolean {
  return skillFolderProblems(path, (expected) => new ConfigError({ file: path }, expected)).length === 0;
}
