import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigErrors, type ConfigError } from '../../../src/config/errors.js';
import { loadAgentBuild } from '../../../src/engine/revision/load-build.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Every `path: problem` loading the build gives. */
function problems(yaml: string): string[] {
  const dir = tempDir({ 'agent.yaml': yaml });
  try {
    loadAgentBuild(join(dir, 'agent.yaml'));
  } catch (error) {
    const errors: readonly ConfigError[] = error instanceof ConfigErrors ? error.errors : [error as ConfigError];
    return errors.map((one) => `${one.path}: ${one.expected}`);
  }
  return [];
}

const build = (id: string, tool: string, server: string) => `id: ${id}
agent:
  name: A
  tools:
    - {name: ${tool}, description: t, returns: {ok: true}}
  mcps: [{name: ${server}, command: [node, server.mjs]}]
`;

describe('names held to a pattern are refused in words, not as the bare pattern', () => {
  it('a build id, a tool name and an MCP server name say what they may hold', () => {
    expect(problems(build('Bad.Id', 'a.b', 'my.server'))).toEqual([
      'id: expected a build id of lower-case letters, digits, "_" or "-", starting with a letter or digit, such as support-bot, got string "Bad.Id"',
      'agent.tools[0].name: expected a tool name of 1 to 64 letters, digits, "_" or "-" (what a model may call), such as lookup_order, got string "a.b"',
      'agent.mcps[0].name: expected an MCP server name of 1 to 32 letters, digits, "_" or "-", such as notes, got string "my.server"',
    ]);
  });

  it('an empty one is told it is empty', () => {
    expect(problems(build('""', '""', '""'))).toEqual([
      'id: expected a build id such as support-bot, got an empty string',
      'agent.tools[0].name: expected a tool name such as lookup_order, got an empty string',
      'agent.mcps[0].name: expected an MCP server name such as notes, got an empty string',
    ]);
  });

  it("an http engine's ready_path says it is a path", () => {
    const external = `id: ext\nexternal:\n  http:\n    url: http://127.0.0.1:8080/run\n    start: {command: [node, server.mjs], ready_path: health}\n`;
    expect(problems(external)).toEqual(['external.http.start.ready_path: expected a path starting with "/", such as /health, got string "health"']);
  });
});
