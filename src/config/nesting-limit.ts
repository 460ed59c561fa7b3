import type { Locator } from './assert-format.js';
import { deepestPath } from './deepest-path.js';
import { withCode } from './errors.js';

/** Deepest nesting accepted, in files and in values given in memory: real builds stay far below it, and recursive walks stay safe. */
export const MAX_DEPTH = 100;

/** What a value nested too deeply is told, after its location (docs/security.md, Limits). */
export const TOO_DEEP = `is nested more than ${MAX_DEPTH} levels deep; agentcheck refuses values beyond that`;

/** What a text nested too deeply for a parser to read is told, after its location (the nesting check names the path of one that was read). */
export const TOO_DEEP_TO_READ = `is nested too deeply to read (more than ${MAX_DEPTH} levels are refused)`;

/**
 * Refuses a value given in memory (an MCP argument, a testRun request field) nested deeper than
 * files may be, before anything walks it recursively: a located ConfigError (CONFIG_TOO_DEEP)
 * naming the path, never a stack overflow.
 */
export function checkNesting(value: unknown, locate: Locator): void {
  const deep = deepestPath(value, MAX_DEPTH);
  if (deep) throw withCode(locate(deep, TOO_DEEP), 'CONFIG_TOO_DEEP');
}
