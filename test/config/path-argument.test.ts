import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { JsonlCheckpointer } from '../../src/engine/checkpoint/jsonl-checkpointer.js';
import { loadAgentBuild, revisionFromValue } from '../../src/engine/revision/load-build.js';
import { FolderWorkspace } from '../../src/engine/workspace/folder-workspace.js';
import { loadSuite } from '../../src/runner/suite/load-suite.js';
import { readSpansJsonl } from '../../src/spans/jsonl.js';
import { configErrorOf } from '../helpers/config-error.js';
import { tempDir } from '../helpers/temp-dir.js';

const build = { id: 'x', agent: { name: 'X', instructions: 'hi', llm: { provider: 'scripted', model: 'm' } } };
const SCENARIO = 'name: one\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{text: done}]}\n';

describe('a library entry given a path that is not a string', () => {
  it('is a ConfigError naming the entry and the argument, not Node\'s "path" argument TypeError nor ignored', async () => {
    const cases: [() => unknown, string][] = [
      [() => loadAgentBuild(123 as never), 'loadAgentBuild at file: expected an agent file path (a string), got number 123'],
      [() => loadAgentBuild(undefined as never), 'loadAgentBuild at file: expected an agent file path (a string), got nothing'],
      [() => loadSuite({ paths: ['.'] }, 5 as never), 'loadSuite at cwd: expected a folder path (a string), got number 5'],
      [() => revisionFromValue(build, 'src.yaml', 5 as never), 'revisionFromValue at baseDir: expected a folder path (a string), got number 5'],
      [() => revisionFromValue(build, 5 as never), 'revisionFromValue at source: expected a source name (a string), got number 5'],
      [() => FolderWorkspace.copyOf(undefined as never), 'FolderWorkspace.copyOf at srcDir: expected a folder path (a string), got nothing'],
      [() => FolderWorkspace.at(5 as never), 'FolderWorkspace.at at dir: expected a folder path (a string), got number 5'],
      [() => new JsonlCheckpointer(5 as never), 'JsonlCheckpointer at file: expected a file path (a string), got number 5'],
    ];
    for (const [call, message] of cases) expect(configErrorOf(call).message).toBe(message);
    // An empty one (an unset variable) is never read as the current folder or a file in it.
    expect(configErrorOf(() => loadAgentBuild('')).message).toBe('loadAgentBuild at file: expected an agent file path, got an empty string');
    expect(configErrorOf(() => new JsonlCheckpointer(' ')).message).toBe('JsonlCheckpointer at file: expected a file path, got an empty string');
    const read = await readSpansJsonl(undefined as never).catch((error: unknown) => error);
    expect(read).toBeInstanceOf(ConfigError);
    expect((read as Error).message).toBe('readSpansJsonl at file: expected a file path (a string), got nothing');
  });

  it('loadSuite names a cwd that is missing or a file, not the scenario path looked up inside it', () => {
    const dir = tempDir({ 'agent.yaml': 'id: a\nagent:\n  name: A\n', 'one.scenario.yaml': SCENARIO });
    const missing = join(dir, 'nope');
    const gone = configErrorOf(() => loadSuite({ paths: ['.'] }, missing));
    expect(gone.message).toBe(`loadSuite at cwd: folder not found: ${missing}; expected the folder the paths and config are relative to`);
    expect(gone.code).toBe('CONFIG_NOT_FOUND');
    const file = join(dir, 'agent.yaml');
    expect(configErrorOf(() => loadSuite({ paths: ['.'] }, file)).message).toContain(`loadSuite at cwd: ${file} is a file, not a folder`);
    expect(loadSuite({ paths: ['.'] }, dir).runs).toHaveLength(1);
  });
});
