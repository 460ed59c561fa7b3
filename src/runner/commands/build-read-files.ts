import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { buildAgent } from '../../engine/revision/build-agent.js';
import { isBuildRelative } from '../../engine/external/build-relative-argv.js';
import type { AgentBuild } from '../../engine/revision/types.js';

/** A file or folder a run reads, and the build field that names it (`external.command[1]`). */
export interface ReadPlace {
  path: string;
  what: string;
}

/**
 * What a build's run reads besides the files given on the command line (docs/cli.md, test-run,
 * --spans): the files its external agent's, MCP servers' and command tools' commands name (argv
 * entries that are existing files, resolved as the run resolves them) and its skill folders.
 */
export function buildReadPlaces(build: AgentBuild, buildFile: string): { files: ReadPlace[]; folders: ReadPlace[] } {
  const buildDir = dirname(buildFile);
  const files: ReadPlace[] = [];
  const commandFiles = (argv: readonly string[] | undefined, at: string, relativeToBuild: (arg: string) => boolean) => {
    argv?.forEach((arg, index) => {
      // An external agent runs in the workspace: only its ./ and ../ paths are the build's files.
      const path = isAbsolute(arg) ? arg : relativeToBuild(arg) ? resolve(buildDir, arg) : undefined;
      if (path !== undefined && isFile(path)) files.push({ path, what: `${at}[${index}]` });
    });
  };
  commandFiles(build.external?.command, 'external.command', isBuildRelative);
  commandFiles(build.external?.http?.start?.command, 'external.http.start.command', isBuildRelative);
  const agent = build.external ? undefined : buildAgent(build);
  // A stdio MCP server runs in the build file's folder: every relative argument is read from there.
  agent?.mcps?.forEach((server, index) => commandFiles(server.command, `agent.mcps[${index}].command`, () => true));
  // A command tool runs in the workspace: its absolute paths are files of the machine it reads
  // (a relative one is the workspace's, which --spans may not be inside anyway).
  agent?.tools?.forEach((tool, index) => commandFiles(tool.command?.argv, `agent.tools[${index}].command.argv`, () => false));
  const folders = (agent?.skills ?? []).flatMap((skill, index) => (skill.ref === undefined ? [] : [{ path: skill.ref, what: `agent.skills[${index}]` }]));
  return { files, folders };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
