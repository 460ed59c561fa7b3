import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandIO } from './cli-io.js';
import { displayPath } from './display-path.js';

/**
 * `run DIR` with DIR's own config where the current folder has one too: which one is read is said
 * (docs/cli.md), also with --quiet like run's other notes, as either could be meant.
 */
export function notePassedOverConfig(ownConfig: string, io: CommandIO): void {
  const cwdConfig = resolve(io.cwd, 'agentcheck.config.yaml');
  if (ownConfig === cwdConfig || !existsSync(cwdConfig)) return;
  io.stderr.write(
    `agentcheck: using ${displayPath(ownConfig, io.cwd)} (the config of the folder given); ${displayPath(cwdConfig, io.cwd)} of the current folder is passed over (give --config to choose)\n`,
  );
}
