import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { SUITE_CONFIG_NAMES } from '../scenario/scenario-file-name.js';

/**
 * The suite config of `folder` (`agentcheck.config.yaml`, `.yml` or `.json`), or undefined when it
 * has none. Two of them is a ConfigError naming both: which one `run` and `validate` read must not
 * depend on a choice the user cannot see.
 */
export function suiteConfigIn(folder: string): string | undefined {
  const present = SUITE_CONFIG_NAMES.map((name) => join(folder, name)).filter((file) => existsSync(file));
  if (present.length > 1) {
    throw new ConfigError(
      { file: present[0] },
      `is one of ${present.length} suite configs in one folder (also ${present.slice(1).join(', ')}); keep one, so run and validate read the same`,
      'CONFIG_INVALID',
    );
  }
  return present[0];
}
