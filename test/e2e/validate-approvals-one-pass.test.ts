import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, runCli } from './cli.js';

/** The located problem lines of a CLI run's output, without their folder. */
const located = (output: string) =>
  output
    .split('\n')
    .filter((line) => /^\S+\.yaml:\d+:\d+ at /.test(line))
    .map((line) => line.replace(/^.*\//, ''));

describe('agentcheck validate and test-run say every problem of approvals in one pass', () => {
  it('says a bad approvals default beside bad tool answers and an unknown tool, in a scenario and in test-run --approvals', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'ap.scenario.yaml': [
        'name: approvals',
        'agent: agent.yaml',
        'inputs: {messages: [{role: user, content: x}]}',
        'model: {script: [{text: ok}]}',
        'approvals: {default: maybe, tools: {lookup: maybe, lokup: deny}}',
        '',
      ].join('\n'),
      'approvals.yaml': 'default: maybe\ntools: {lookup: maybe, lokup: deny}\n',
      'script.yaml': '[{text: ok}]\n',
    });
    const validate = await runCli(['validate', 'ap.scenario.yaml'], dir);
    expect(validate.exitCode, validate.all).toBe(2);
    expect(located(validate.all)).toEqual([
      'ap.scenario.yaml:5:22 at approvals.default: expected one of "approve" | "deny", got string "maybe"',
      `ap.scenario.yaml:5:45 at approvals.tools.lookup: a tool's approval gate takes "approve", "deny", "reject"; got "maybe"`,
      'ap.scenario.yaml:5:52 at approvals.tools.lokup: "lokup" names no tool of the agent; expected one of: lookup, finish; did you mean "lookup"?',
    ]);
    const testRun = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'x', '--script', 'script.yaml', '--approvals', 'approvals.yaml'], dir);
    expect(testRun.exitCode, testRun.all).toBe(2);
    // The first problem follows test-run's "agentcheck: invalid input: ", the others have a line each.
    expect(located(testRun.all.replace('agentcheck: invalid input: ', ''))).toEqual([
      'approvals.yaml:1:10 at default: expected one of "approve" | "deny", got string "maybe"',
      `approvals.yaml:2:17 at tools.lookup: a tool's approval gate takes "approve", "deny", "reject"; got "maybe"`,
      'approvals.yaml:2:24 at tools.lokup: "lokup" names no tool of the agent; expected one of: lookup, finish; did you mean "lookup"?',
    ]);
  });
});
