import { resolve } from 'node:path';
import { suiteConfigIn } from '../suite/suite-config-file.js';
import type { CommandIO } from './cli-io.js';
import { displayPath } from '../files/display-path.js';

/**
 * `run DIR` with DIR's own config where the current folder has one too: which one is read is said
 * (docs/cli.md), also with --quiet like run's other notes, as either could be meant.
 */
export function notePassedOverConfig(ownConfig: string, io: CommandIO): void {
  let cwdConfig: string | undefined;
  try {
    cwdConfig = suiteConfigIn(resolve(io.cwd));
  } catch {
    // Two configs in the current folder: neither is read here, so neither is passed over.
    return;
  }
  if (!cwdConfig || resolve(ownConfig) === cwdConfig) return;
  io.stderr.write(
    `agentcheck: using ${displayPath(ownConfig, io.cwd)} (the config of the folder given); ${displayPath(cwdConfig, io.cwd)} of the current folder is passed over (give --config to choose)\n`,
  );
}
