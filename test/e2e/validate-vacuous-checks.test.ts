import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

/** The located problem lines of a CLI run's output, without their folder. */
const located = (output: string) =>
  output
    .split('\n')
    .filter((line) => /^\S+\.yaml:\d+:\d+ at /.test(line))
    .map((line) => line.replace(/^.*\//, ''));

/** A build whose model may call lookup and the plan pl, which calls the built-in echo. */
const PLAN_BOT = `id: bot
agent:
  name: Bot
  tools:
    - {name: lookup, description: L, parameters: {type: object, properties: {id: {type: string}}}, returns: {ok: true}}
    - name: pl
      description: plan
      parameters: {type: object, properties: {}}
      plan: {steps: [{tools: [{name: echo, arguments: {text: hi}}]}]}
`;

const scenarioWith = (...checks: string[]) => `defaults:
  agent: bot.yaml
  inputs: {messages: [{role: user, content: x}]}
  model: {script: [{tool_calls: [{name: pl, args: {}}, {name: lookup, args: {id: "1"}}]}, {text: ok}]}
scenarios:
  - name: checks
    expect:
      checks:
${checks.map((check) => `        - ${check}\n`).join('')}`;

describe('agentcheck validate refuses checks that could only pass vacuously, every one in one pass', () => {
  it('a nested-only tool_not_called, min: 0 without max, args under ignore and a spans count of min: 0', async () => {
    const dir = tempDir({
      'bot.yaml': PLAN_BOT,
      'r.scenarios.yaml': scenarioWith(
        'tool_not_called: {tool: echo}',
        'tool_called: {tool: lookup, min: 0}',
        'tool_called: {tool: lookup, args_mode: ignore, args: {id: "999"}}',
        'spans: {query: {filtering: {field: name, operator: is, value: nothing}}, count: {min: 0}}',
        'tool_called: {tool: lookup, args_mode: exact}',
      ),
    });
    const result = await runCli(['validate', 'r.scenarios.yaml'], dir);
    expect(result.exitCode, result.all).toBe(2);
    const at = 'r.scenarios.yaml at scenarios[0].expect.checks';
    expect(located(result.all).map((line) => line.replace(/:\d+:\d+ at /, ' at '))).toEqual([
      `${at}[0].tool_not_called.tool: a tool_not_called check names "echo", which is called only inside a chain or plan (by pl); without nested: true it sees only the model's and flow steps' calls, so it could only pass, also when echo ran; add nested: true (tool_not_called: {tool: echo, nested: true}) to check that it never ran, also inside a chain or plan`,
      `${at}[1].tool_called.min: min: 0 without max passes on every run (0 or more calls); give max too (min: 0, max: 2 means at most 2 calls), or use tool_not_called for a tool that must not be called`,
      `${at}[2].tool_called.args: args are not compared under args_mode: ignore; remove args, or compare them with args_mode superset, subset or exact`,
      `${at}[3].spans.count.min: min: 0 without max passes on every run (0 or more spans); give max (count: {max: 2} means at most 2), or equals`,
      `${at}[4].tool_called.args_mode: args_mode compares the call's arguments with "args": give "args" too (without them a call with any arguments matches; args: {} with args_mode: exact asks for a call without arguments)`,
    ]);
    // The build the scenario file loaded was checked and is valid: it is counted.
    expect(result.all).toContain('agentcheck validate: 5 problem(s) in 1 file(s); valid: 1 agent build(s), 0 scenario file(s) with 0 scenario(s)');
  });

  it('accepts each of them written to mean something, and the run passes them', async () => {
    const dir = tempDir({
      'bot.yaml': PLAN_BOT,
      'r.scenarios.yaml': scenarioWith(
        'tool_not_called: {tool: echo, nested: true, args: {text: bye}}',
        'tool_called: {tool: lookup, min: 0, max: 1}',
        'tool_called: {tool: lookup, args_mode: exact, args: {id: "1"}}',
        'spans: {query: {filtering: {field: name, operator: is, value: nothing}}, count: {max: 0}}',
      ),
    });
    const validate = await runCli(['validate', 'r.scenarios.yaml'], dir);
    expect(validate.exitCode, validate.all).toBe(0);
    expect(validate.stdout).toBe('agentcheck validate: ok: 1 agent build(s), 1 scenario file(s) with 1 scenario(s), 0 skill(s), 0 config(s)');
    const run = await runCli(['run', 'r.scenarios.yaml', '--out', tempDir()], dir);
    expect(run.exitCode, run.all).toBe(0);
  });
});
