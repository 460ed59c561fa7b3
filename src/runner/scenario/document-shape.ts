import { basename } from 'node:path';
import { SCENARIO_FILE, SUITE_CONFIG_FILE } from './scenario-file-name.js';

/** Keys only a suite config has (a scenario has none of them). */
export const CONFIG_ONLY_KEYS: ReadonlySet<string> = new Set(['variants', 'repeat', 'concurrency', 'reporters', 'out', 'judge', 'cassettes']);

/** Top-level keys of a scenario or a file of scenarios that a suite config never has. */
const SCENARIO_ONLY_KEYS: ReadonlySet<string> = new Set(['name', 'inputs', 'agent', 'expect', 'defaults']);

/**
 * Whether `value`, read from `file`, is a scenario file rather than a suite config: named
 * `*.scenario(s).yaml`, or holding a scenario's keys (or a `scenarios` list of mappings, where a
 * config lists globs) and none only a config has. `--config` given one says so once
 * (docs/cli.md), as `run` given a suite config does.
 */
export function isScenarioShape(value: unknown, file: string): boolean {
  if (SCENARIO_FILE.test(basename(file))) return true;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.some((key) => CONFIG_ONLY_KEYS.has(key)) || isReportShape(value)) return false;
  // A config's `scenarios` lists globs: a list of strings says config, whatever stray key sits beside it.
  if (listsScenarioGlobs(value)) return false;
  const scenarios = (value as { scenarios?: unknown }).scenarios;
  const listsScenarios = Array.isArray(scenarios) && scenarios.some((entry) => typeof entry === 'object' && entry !== null);
  return listsScenarios || keys.some((key) => SCENARIO_ONLY_KEYS.has(key));
}

/** Top-level keys that make a file with a config's key beside them a scenario file (with an unknown key). */
const SCENARIO_KEYS: ReadonlySet<string> = new Set(['name', 'inputs', 'agent', 'scenarios']);

/**
 * Whether `value`, read from `file` where another kind of file belongs (a scenario path, --agent),
 * is a suite config: named agentcheck.config.yaml, its `scenarios` a list of globs, or holding a
 * key only a config has beside no scenario's key. `value` has its merge keys applied, so keys a
 * `<<` brings in count (docs/cli.md: such a file is refused once, saying what it is).
 */
export function isSuiteConfigShape(value: unknown, file: string): boolean {
  if (SUITE_CONFIG_FILE.test(basename(file))) return true;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  // A config's `scenarios` lists globs: a list of strings says config, whatever stray key sits beside it.
  if (listsScenarioGlobs(value)) return true;
  const keys = Object.keys(value);
  return keys.some((key) => CONFIG_ONLY_KEYS.has(key)) && !keys.some((key) => SCENARIO_KEYS.has(key));
}

/** Whether `value` is an agentcheck report.json (its `schema` names the report format). */
export function isReportShape(value: unknown): boolean {
  const schema = value && typeof value === 'object' ? (value as { schema?: unknown }).schema : undefined;
  return typeof schema === 'string' && schema.startsWith('agentcheck.report/');
}

/** Whether `value`'s `scenarios` is a suite config's: a non-empty list of globs (strings), where a scenarios file lists mappings. */
export function listsScenarioGlobs(value: object): boolean {
  const scenarios = (value as { scenarios?: unknown }).scenarios;
  return Array.isArray(scenarios) && scenarios.length > 0 && scenarios.every((entry) => typeof entry === 'string');
}
