import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryLocator } from '../../../src/config/assert-format.js';
import { checkRequestNames } from '../../../src/runner/scenario/check-scenario-names.js';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import type { Scenario } from '../../../src/runner/scenario/scenario.js';
import type { AgentBuild } from '../../../src/engine/revision/types.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { tempDir } from '../../helpers/temp-dir.js';

// docs/formats.md, "Names a scenario uses": a name with `mcp__<server>__` must name a tool of that server.

const NOTES_AGENT = `id: n
agent:
  name: N
  tools: [{name: finish, returns: {done: true}}]
  mcps: [{name: notes, command: [node, s.js], tools: [write_note]}]
`;
const OPEN_AGENT = `id: o
agent:
  name: O
  tools: [{name: finish, returns: {done: true}}]
  mcps: [{name: notes, command: [node, s.js], tools: [write_note]}, {name: open, command: [node, s.js]}]
`;

function load(scenarioYaml: string, agent: string): Scenario[] {
  const dir = tempDir({ 'agent.yaml': agent, 'a.scenarios.yaml': scenarioYaml });
  return loadScenarioFile({ file: join(dir, 'a.scenarios.yaml'), root: dir }, { agents: new Map() });
}

const head = 'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\n';
const checks = (...items: string[]) => `${head}expect:\n  checks:\n${items.map((item) => `    - ${item}\n`).join('')}`;

describe('a server-prefixed name names a declared tool of that server', () => {
  it('refuses another server, or a server prefix on an agent tool, with a suggestion', () => {
    const error = configErrorOf(() =>
      load(
        `${head}expect:\n  terminal_tool: mcp__nosuchserver__finish\n  checks:\n    - tool_called: {tool: mcp__other__write_note}\n    - tool_order: {before: [mcp__x__write_note], after: mcp__y__finish}\n`,
        NOTES_AGENT,
      ),
    );
    const message = error.message;
    expect(message).toContain(
      'expect.terminal_tool: expect.terminal_tool names no tool of the agent: "mcp__nosuchserver__finish"; expected one of: finish, mcp__notes__write_note; did you mean "finish"?',
    );
    expect(message).toContain(
      'expect.checks[0].tool_called.tool: a tool_called check names no tool of the agent: "mcp__other__write_note"; expected one of: finish, mcp__notes__write_note; did you mean "mcp__notes__write_note"?',
    );
    expect(message).toContain('expect.checks[1].tool_order.before[0]: a tool_order check names no tool of the agent: "mcp__x__write_note"');
    expect(message).toContain('expect.checks[1].tool_order.after: a tool_order check names no tool of the agent: "mcp__y__finish"');
  });

  it('accepts the declared tool by its full name, and its tool part alone', () => {
    expect(
      load(
        checks(
          'tool_called: {tool: mcp__notes__write_note}',
          'tool_not_called: {tool: write_note}',
          'tool_order: {before: [mcp__notes__write_note], after: finish}',
        ),
        NOTES_AGENT,
      ),
    ).toHaveLength(1);
  });

  it('beside a server without a tools list: any tool of that server is accepted, another server still is held to its list', () => {
    expect(load(checks('tool_called: {tool: mcp__open__anything}', 'tool_called: {tool: anything}'), OPEN_AGENT)).toHaveLength(1);
    const error = configErrorOf(() => load(checks('tool_not_called: {tool: mcp__notes__delete_note}'), OPEN_AGENT));
    expect(error.path).toBe('expect.checks[0].tool_not_called.tool');
    expect(error.expected).toContain('names no tool of the agent: "mcp__notes__delete_note"; expected one of: finish, mcp__notes__write_note, mcp__open__*');
    expect(configErrorOf(() => load(checks('tool_called: {tool: mcp__ghost__finish}'), OPEN_AGENT)).expected).toContain('"mcp__ghost__finish"');
  });

  it('a test_run request on a build without MCP servers refuses a server-prefixed terminal tool', () => {
    const build = { agent: { name: 'A', tools: [{ name: 'finish', returns: { done: true } }] } } as unknown as AgentBuild;
    const problems = checkRequestNames({ terminalTool: 'mcp__ghost__finish', noLoadSkill: 'no skills' }, build, memoryLocator('request'));
    expect(problems.map((problem) => problem.message)).toEqual([
      'request at expectations.terminal_tool: expectations.terminal_tool names no tool of the agent: "mcp__ghost__finish"; expected one of: finish; did you mean "finish"?',
    ]);
  });
});

describe('the list of names an unknown tool name is told', () => {
  it('never suggests the mcp__<server>__* that stands for an open server, and names each tool part once for a /regex/', () => {
    const twoServers = OPEN_AGENT.replace(
      'tools: [write_note]}, {name: open',
      'tools: [write_note]}, {name: more, command: [node, s.js], tools: [write_note]}, {name: open',
    );
    const regex = configErrorOf(() => load(checks('tool_called: {tool: "/^zzz/"}'), twoServers.replace(', {name: open, command: [node, s.js]}', '')));
    expect(regex.message).toContain('a /regex/ sees the names without their mcp__<server>__ prefix: finish, write_note');
    const near = configErrorOf(() => load(checks('tool_called: {tool: mcp__notes__}'), OPEN_AGENT));
    expect(near.message).toContain('names no tool of the agent: "mcp__notes__"');
    expect(near.message).not.toContain('did you mean "mcp__open__*"');
  });
});
