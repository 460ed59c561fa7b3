import { statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { walkFiles } from '../files/walk-files.js';

/** `*.scenario.yaml`, `*.scenarios.yaml`, also `.yml` and `.json` (docs/formats.md, Scenario). */
export const SCENARIO_FILE = /\.scenarios?\.(ya?ml|json)$/;

/** A scenario file and the root its id is relative to. */
export interface FoundScenarioFile {
  file: string;
  root: string;
}

/**
 * Finds scenario files under the given paths (recursively for folders, sorted); a path that
 * does not exist is a ConfigError. A file given by name is taken whatever its suffix.
 */
export function discoverScenarioFiles(paths: readonly string[], cwd = process.cwd()): FoundScenarioFile[] {
  const found: FoundScenarioFile[] = [];
  const seen = new Set<string>();
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    let stats;
    try {
      stats = statSync(absolute);
    } catch {
      throw new ConfigError({ file: given }, 'path not found: expected a scenario file or a folder of *.scenario.yaml files', 'CONFIG_NOT_FOUND');
    }
    const add = (file: string, root: string) => {
      if (!seen.has(file)) {
        seen.add(file);
        found.push({ file, root });
      }
    };
    if (stats.isDirectory()) for (const file of walkFiles(absolute, (name) => SCENARIO_FILE.test(name))) add(file, absolute);
    else add(absolute, resolve(absolute, '..'));
  }
  return found;
}

/** A scenario id's file part: the path relative to the run root, with `/` separators. */
export function scenarioFileId(file: string, root: string): string {
  return relative(root, file).split(sep).join('/');
}
