import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator } from '../../config/assert-format.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { isBuildRelative } from '../external/build-relative-argv.js';
import type { AgentBuild } from './types.js';

/**
 * The files an external build's commands run must exist (docs/external-agents.md, "The build"):
 * in `external.command` and `external.http.start.command`, the first `./` or `../` argument (the
 * program itself, or the script an interpreter runs: `[node, ./agent.mjs]`) is looked for where
 * the run will look, relative to the build file's folder; the program itself must not be a folder.
 * Later ones may name files the agent writes, and bare names resolve in the run's workspace or on PATH: neither is checked.
 */
export function checkExternalCommandFiles(build: AgentBuild, buildDir: string, locate: Locator): void {
  throwConfigErrors(externalCommandFileProblems(build, buildDir, locate));
}

/**
 * The problems checkExternalCommandFiles throws, each command on its own; `valid` says which
 * commands the build's format check left intact (the others are not read), so a missing file is
 * reported beside the build's other problems (docs/cli.md, validate).
 */
export function externalCommandFileProblems(
  build: AgentBuild,
  buildDir: string,
  locate: Locator,
  valid: (path: Array<string | number>) => boolean = () => true,
): ConfigError[] {
  const http = build.external?.http;
  const commands: Array<[readonly string[] | undefined, Array<string | number>]> = [
    [build.external?.command, ['external', 'command']],
    [http?.start?.command, ['external', 'http', 'start', 'command']],
  ];
  const problems: ConfigError[] = [];
  for (const [argv, at] of commands) {
    if (!argv || !valid(at)) continue;
    const index = argv.findIndex(isBuildRelative);
    if (index < 0) continue;
    const file = resolve(buildDir, argv[index]);
    collectConfigErrors(problems, () => {
      if (!existsSync(file)) {
        throw locate(
          [...at, index],
          `"${argv[index]}" does not exist: ./ and ../ paths of a command are relative to the build file's folder, so expected a file at ${file}`,
        );
      }
      // A folder cannot be the program (spawn fails with EACCES); an interpreter may run one
      // (`node ./pkg` reads its index.js), so only the program itself is held to a file.
      if (index === 0 && statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
        throw locate([...at, index], `"${argv[index]}" is the program the command runs, so expected a file at ${file}, found a folder`);
      }
    });
  }
  return problems;
}
