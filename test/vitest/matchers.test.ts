import { describe, expect, it } from 'vitest';
import type { ScenarioRow } from '../../src/runner/report/report.js';
import type { TestRunResult } from '../../src/runner/test-run.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resumeTestRun, runScenario, testRun, type TrajectoryCall } from '../../src/vitest/index.js';
import { toHaveCalledTool, toHaveCalledToolsInOrder, toHaveVerdict, toPass } from '../../src/vitest/matchers.js';
import { formatTrajectory } from '../../src/vitest/trajectory.js';
import { configErrorOf } from '../helpers/config-error.js';
import { once } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { NAMES_SERVER } from '../engine/mcp/mcp-helpers.js';
import { runCli } from '../e2e/cli.js';

const AGENT = {
  id: 'matcher-bot',
  agent: {
    name: 'Matcher bot',
    llm: { provider: 'scripted', model: 'm' },
    tools: [
      {
        name: 'lookup',
        description: 'Look up.',
        read_only: true,
        parameters: { type: 'object', properties: { id: { type: 'string' }, deep: { type: 'object' } } },
        returns: { status: 'ok' },
      },
      { name: 'finish', description: 'Finish.', parameters: { type: 'object' }, returns: { done: true } },
    ],
  },
};

function run(calls: Array<{ name: string; args: Record<string, unknown> }>): Promise<TestRunResult> {
  return testRun({
    agent: AGENT,
    inputs: { messages: [{ role: 'user', content: 'go' }] },
    expectations: { terminal_tool: 'finish' },
    script: [...calls.map((call) => ({ tool_calls: [call] })), { text: 'done' }],
  });
}

/** A result as a plain copy: what a caller has when it did not come from agentcheck/vitest. */
function unrecorded<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('agentcheck matchers', () => {
  it('are installed on expect by importing agentcheck/vitest', async () => {
    const result = await run([
      { name: 'lookup', args: { id: '1', deep: { a: 1, b: 2 } } },
      { name: 'finish', args: {} },
    ]);
    expect(result).toPass();
    expect(result).toHaveVerdict('pass');
    expect(result).toHaveCalledTool('lookup', { deep: { a: 1, b: 2 } });
    expect(result).toHaveCalledTool('lookup', { id: { $one_of: ['1', '2'] } });
    expect(result).not.toHaveCalledTool('lookup', { id: '3' });
    expect(result).toHaveCalledToolsInOrder(['lookup', 'finish']);
    expect(result).toHaveCalledToolsInOrder(['finish']);
  });

  it('see every call of a resumed run, before and after its pause, as its tools digest does', async () => {
    const paused = await testRun({
      agent: { ...AGENT, agent: { ...AGENT.agent, tools: [AGENT.agent.tools[0], { ...AGENT.agent.tools[1], permission: 'ask' }] } },
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      expectations: { terminal_tool: 'finish' },
      script: [{ tool_calls: [{ name: 'lookup', args: { id: '7' } }] }, { tool_calls: [{ name: 'finish', args: {} }] }, { text: 'done' }],
    });
    expect(paused.stop_reason).toBe('paused');
    const result = await resumeTestRun({ run_id: paused.run_id as string, decision: 'approve' });
    expect(result.tools.map((tool) => [tool.name, tool.called])).toEqual([
      ['lookup', 1],
      ['finish', 1],
    ]);
    expect(result).toHaveCalledTool('lookup', { id: '7' });
    expect(result).toHaveCalledToolsInOrder(['lookup', 'finish']);
    expect(toHaveCalledTool(result, 'lookup', { id: '7' }).pass).toBe(true);
    expect(() => expect(result).not.toHaveCalledTool('lookup', { id: '7' })).toThrow(/not to call lookup/);
  });

  it('explain a failed verdict with the reason and the trajectory', async () => {
    const result = await run([
      { name: 'lookup', args: { id: '1' } },
      { name: 'lookup', args: { id: '2' } },
    ]);
    const outcome = toPass(result);
    expect(outcome.pass).toBe(false);
    expect(outcome.message()).toBe(
      [
        'expected test_run to pass, but it ended incomplete',
        'Reason: terminal tool finish was never called; saw lookup x2',
        'Verdict: incomplete',
        'Trajectory (2 tool calls):',
        '  1. lookup {"id":"1"} -> ok',
        '  2. lookup {"id":"2"} -> ok',
      ].join('\n'),
    );
    expect(toHaveVerdict(result, 'incomplete').pass).toBe(true);
    expect(toHaveVerdict(result, 'pass').message()).toContain('to have verdict pass, got incomplete');
    expect(toHaveCalledTool(result, 'finish').message()).toContain('to call finish, but it was never called');
    expect(toHaveCalledToolsInOrder(result, ['lookup', 'finish']).message()).toContain('but "finish" was never called; first calls were: lookup');
  });

  it('fall back to the digest for results without recorded calls, and refuse argument checks there', async () => {
    const result = unrecorded(
      await run([
        { name: 'lookup', args: { id: '1' } },
        { name: 'finish', args: {} },
      ]),
    );
    expect(result).toHaveCalledTool('lookup');
    expect(result).toHaveCalledToolsInOrder(['lookup', 'finish']);
    expect(toPass({ ...result, verdict: 'failed' }).message()).toContain('Trajectory (arguments not recorded; first-call order): lookup x1, finish x1');
    expect(() => toHaveCalledTool(result, 'lookup', { id: '1' })).toThrow(/cannot check arguments.*runScenario\(\) or testRun\(\) of agentcheck\/vitest/);
  });

  it('read rows: status decides toPass, the verdict comes from test_run, errors are named', () => {
    const row: ScenarioRow = {
      id: 'a.scenario.yaml#broken',
      name: 'broken',
      file: '/x/a.scenario.yaml',
      variant: 'lean',
      repeat: 2,
      tags: [],
      status: 'error',
      reason: 'script exhausted after 1 entries',
      test_run: null,
      checks: [],
      turns: 1,
      duration_ms: 3,
      error: { type: 'SCRIPT_EXHAUSTED', message: 'script exhausted after 1 entries' },
    };
    const outcome = toPass(row);
    expect(outcome.pass).toBe(false);
    expect(outcome.message()).toBe(
      [
        'expected scenario "broken" [lean] repeat 2 to pass, but it ended error',
        'Reason: script exhausted after 1 entries',
        '  - error SCRIPT_EXHAUSTED',
        'Trajectory: no tool calls (arguments not recorded)',
      ].join('\n'),
    );
    expect(toHaveVerdict(row, 'pass').message()).toContain('got none (the run produced no test_run result)');
  });

  it('refuse a tool name the build lacks, an unknown $matcher and a repeated or empty order, which could only pass vacuously', async () => {
    const result = await run([
      { name: 'lookup', args: { id: '1' } },
      { name: 'finish', args: {} },
    ]);
    expect(() => expect(result).not.toHaveCalledTool('finsh')).toThrow(
      'toHaveCalledTool: the build has no tool "finsh"; did you mean "finish"? (its tools: lookup, finish)',
    );
    expect(() => expect(result).not.toHaveCalledTool('/^delete/')).toThrow("toHaveCalledTool: the pattern /^delete/ matches none of the build's tools");
    expect(() => expect(result).not.toHaveCalledTool('lookup', { id: { $regx: '^1' } })).toThrow(
      /toHaveCalledTool: .*unknown matcher "\$regx".*did you mean "\$regex"/,
    );
    // An argument the tool does not take (its parameters are closed) is refused as a scenario check's is at load.
    expect(() => expect(result).not.toHaveCalledTool('lookup', { idd: '1' })).toThrow(
      'toHaveCalledTool: arguments at idd: argument "idd" is not a parameter of lookup; expected one of: id, deep; did you mean "id"?',
    );
    expect(() => expect(result).toHaveCalledTool('/^look/', { idd: '1' })).toThrow(/argument "idd" is not a parameter of lookup/);
    // finish declares no properties: any argument name may be one.
    expect(result).not.toHaveCalledTool('finish', { force: true });
    expect(() => expect(result).not.toHaveCalledToolsInOrder(['lookp'])).toThrow(/toHaveCalledToolsInOrder: the build has no tool "lookp"/);
    expect(() => expect(result).toHaveCalledToolsInOrder(['lookup', 'lookup'])).toThrow(
      'toHaveCalledToolsInOrder compares first calls, one per tool: "lookup" is given twice',
    );
    expect(() => expect(result).toHaveCalledToolsInOrder([])).toThrow(/non-empty array of tool names/);
    // A known tool the run did not call, and a pattern that matches one, still work both ways.
    expect(result).not.toHaveCalledTool('/^look/', { id: '2' });
    expect(result).toHaveCalledTool('/^look/');
  });

  it("accept a tool only a plan calls, as the build's scenario checks do, and still refuse a name no step calls", async () => {
    const result = await testRun({
      agent: {
        id: 'plan-bot',
        agent: {
          name: 'Plan bot',
          llm: { provider: 'scripted', model: 'm' },
          tools: [
            {
              name: 'report',
              description: 'Report.',
              parameters: { type: 'object' },
              plan: { steps: [{ tools: [{ name: 'echo', arguments: { text: 'hi' } }] }] },
            },
          ],
        },
      },
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      script: [{ tool_calls: [{ name: 'report', args: {} }] }, { text: 'done' }],
    });
    expect(result).toHaveCalledTool('report');
    // echo is called inside the plan, not by the model: the matchers count the digest's calls.
    expect(result).not.toHaveCalledTool('echo');
    expect(() => expect(result).not.toHaveCalledTool('read_file')).toThrow('toHaveCalledTool: the build has no tool "read_file" (its tools: report, echo)');
  });

  it('reject what they cannot read', () => {
    expect(() => toPass({ hello: 1 })).toThrow(/expect a ScenarioRow \(from runScenario\(\)\) or a TestRunResult/);
    // A missing await: said as such, never "an object with keys (none)".
    const pending = Promise.resolve({ verdict: 'pass', verdict_reason: '', tools: [] });
    const awaitIt =
      'agentcheck matchers expect a ScenarioRow (from runScenario()) or a TestRunResult (from testRun()), got a Promise (a missing await?): the row or result must be awaited, as in expect(await runScenario(...)).toPass()';
    expect(() => expect(pending).toPass()).toThrow(awaitIt);
    expect(() => toHaveCalledTool(pending, 'lookup')).toThrow(awaitIt);
    expect(() => toHaveVerdict({ verdict: 'pass', verdict_reason: '', tools: [] }, 'great')).toThrow(/one of pass, incomplete, unconfirmed, failed/);
    expect(() => toHaveCalledToolsInOrder({ verdict: 'pass', verdict_reason: '', tools: [] }, 'lookup' as never)).toThrow(/array of tool names/);
  });
});

describe('formatTrajectory', () => {
  it('numbers the calls with their arguments and outcome', () => {
    expect(formatTrajectory([{ name: 'lookup', args: { id: '1' }, outcome: 'error', error: 'http_500' }])).toBe(
      'Trajectory (1 tool call):\n  1. lookup {"id":"1"} -> error (http_500)',
    );
    expect(formatTrajectory(undefined, [{ name: 'lookup', called: 2 }])).toBe('Trajectory (arguments not recorded; first-call order): lookup x2');
  });

  it('takes calls whose error is left out, as the exported TrajectoryCall type does (docs/architecture.md)', () => {
    // Checked by tsc (npm run typecheck): a call without `error` was TS2741 here.
    const calls: TrajectoryCall[] = [
      { name: 'lookup', args: { id: '1' }, outcome: 'ok' },
      { name: 'refund', args: {}, outcome: 'denied' },
      { name: 'notify', args: {}, outcome: 'error', error: null },
    ];
    expect(formatTrajectory(calls)).toBe('Trajectory (3 tool calls):\n  1. lookup {"id":"1"} -> ok\n  2. refund {} -> denied\n  3. notify {} -> error');
  });

  it('refuses what is not a list of calls or a digest, naming each field, never a TypeError or a line of undefineds', () => {
    expect(configErrorOf(() => formatTrajectory('x' as never)).message).toBe(
      'formatTrajectory at calls: expected a list of tool calls {name, args, outcome, error} (or undefined when arguments were not recorded), got string "x"',
    );
    expect(configErrorOf(() => formatTrajectory([{}] as never)).message.split('\n')).toEqual([
      "formatTrajectory at calls[0].name: expected the tool's name (a string), got nothing",
      'formatTrajectory at calls[0].outcome: expected ok, error, denied, pending, got nothing',
    ]);
    // An outcome a call never has is refused too, not printed; no error at all reads as none.
    expect(configErrorOf(() => formatTrajectory([{ name: 'a', args: {}, outcome: 'weird', error: null }] as never)).message).toBe(
      'formatTrajectory at calls[0].outcome: expected ok, error, denied, pending, got string "weird"',
    );
    expect(formatTrajectory([{ name: 'a', args: {}, outcome: 'ok' }])).toContain('1. a {} -> ok');
    expect(configErrorOf(() => formatTrajectory([{ name: 'a', args: {}, outcome: 'ok', error: 5 }] as never)).message).toBe(
      'formatTrajectory at calls[0].error: expected the error type (a string) or null, got number 5',
    );
    expect(configErrorOf(() => formatTrajectory([null] as never)).message).toBe(
      'formatTrajectory at calls[0]: expected a tool call {name, args, outcome, error}, got null',
    );
    expect(configErrorOf(() => formatTrajectory(undefined, 5 as never)).message).toBe(
      "formatTrajectory at digest: expected a list of tools {name, called} (a test_run's tools), got number 5",
    );
    expect(configErrorOf(() => formatTrajectory(undefined, [{ name: 'lookup' }] as never)).message).toBe(
      'formatTrajectory at digest[0].called: expected how many times it was called (a number), got nothing',
    );
  });
});

describe('matchers on a server-prefixed name (docs/vitest.md)', () => {
  const command = (name: string) => ({ name, command: [process.execPath, NAMES_SERVER, 'write_note'] });
  // Two servers offering write_note, and the agent's own write_note: three tools of one tool part.
  const build = {
    ...AGENT,
    agent: {
      ...AGENT.agent,
      permissions: { mode: 'allow' },
      tools: [...AGENT.agent.tools, { name: 'write_note', description: 'Write.', parameters: { type: 'object' }, returns: { ok: true } }],
      mcps: [command('a'), command('b')],
    },
  };
  const script = [
    { tool_calls: [{ name: 'mcp__a__write_note', args: { id: '1' } }] },
    { tool_calls: [{ name: 'write_note', args: {} }] },
    { tool_calls: [{ name: 'mcp__a__write_note', args: { id: '2' } }] },
    { tool_calls: [{ name: 'finish', args: {} }] },
    { text: 'done' },
  ];
  // One run (two MCP server starts) for the two tests that only read its result.
  const twoServers = once(() =>
    testRun({ agent: build, inputs: { messages: [{ role: 'user', content: 'go' }] }, expectations: { terminal_tool: 'finish' }, script }),
  );
  /** What toHaveCalledTool answers for each name, whether the subject carries its calls or only its digest. */
  const CALLED: Array<[name: string, called: boolean]> = [
    ['mcp__a__write_note', true],
    ['mcp__b__write_note', false],
    ['write_note', true],
    ['execute_tool mcp__a__write_note', true],
    ['/write_.*/', true],
    ['finish', true],
    ['lookup', false],
  ];
  const answers = (subject: unknown) => CALLED.map(([name]) => [name, toHaveCalledTool(subject, name).pass]);

  it("name that server's tool only", async () => {
    const result = await twoServers();
    expect(result).toPass();
    expect(result).toHaveCalledTool('mcp__a__write_note', { id: '1' });
    expect(result).toHaveCalledTool('write_note');
    expect(result).not.toHaveCalledTool('mcp__b__write_note');
    expect(result).toHaveCalledToolsInOrder(['mcp__a__write_note', 'finish']);
    expect(toHaveCalledToolsInOrder(result, ['mcp__b__write_note', 'finish'])).toMatchObject({ pass: false });
    expect(toHaveCalledToolsInOrder(result, ['mcp__b__write_note', 'finish']).message()).toContain(
      'but "mcp__b__write_note" was never called; first calls were: write_note -> write_note -> finish',
    );
  });

  it('answer toHaveCalledTool alike on a live result and on its digest alone, which counts calls by server', async () => {
    const result = await twoServers();
    const digest = unrecorded(result);
    expect(digest.tools.find((tool) => tool.name === 'write_note')).toMatchObject({ called: 3, servers: { a: 2 } });
    expect(answers(result)).toEqual(CALLED);
    expect(answers(digest)).toEqual(CALLED);
    expect(digest).not.toHaveCalledTool('mcp__b__write_note');
    // The reason a live result gives, with what the digest shows of that tool part's calls.
    expect(toHaveCalledTool(digest, 'mcp__b__write_note').message()).toMatch(
      /^expected test_run to call mcp__b__write_note, but it was never called \(its tool digest counts write_note's calls as mcp__a__write_note x2, write_note x1\)\n/,
    );
    expect(toHaveCalledTool(result, 'mcp__b__write_note').message()).toMatch(/^expected test_run to call mcp__b__write_note, but it was never called\n/);
    expect(toHaveCalledTool(digest, 'lookup').message()).toMatch(/^expected test_run to call lookup, but it was never called\n/);
    expect(toHaveCalledTool(digest, 'mcp__a__write_note').message()).toMatch(
      /^expected test_run not to call mcp__a__write_note, but its tool digest counts 2 calls of it\n/,
    );
    // Arguments and first-call order across servers are not in a digest: those still throw.
    expect(() => toHaveCalledTool(digest, 'mcp__a__write_note', { id: '1' })).toThrow('cannot check arguments');
    expect(() => toHaveCalledToolsInOrder(digest, ['mcp__a__write_note'])).toThrow('names one MCP server');
  });

  it('answer toHaveCalledTool alike on a live row and on that row read back from report.json', async () => {
    const dir = tempDir({
      'agent.yaml': JSON.stringify(build),
      'notes.scenarios.yaml': JSON.stringify({
        defaults: { agent: 'agent.yaml', inputs: { messages: [{ role: 'user', content: 'go' }] }, model: { script } },
        scenarios: [{ name: 'notes', expect: { terminal_tool: 'finish' } }],
      }),
    });
    const row = await runScenario(join(dir, 'notes.scenarios.yaml'), 'notes', { cwd: dir });
    const cli = await runCli(['run', '.', '--reporter', 'json', '--out', 'out'], dir);
    expect(cli.exitCode, cli.all).toBe(0);
    const [stored] = (JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { scenarios: ScenarioRow[] }).scenarios;
    expect(answers(row)).toEqual(CALLED);
    expect(answers(stored)).toEqual(CALLED);
    expect(toHaveCalledTool(stored, 'mcp__b__write_note').message()).toMatch(
      /^expected scenario "notes" \[base\] to call mcp__b__write_note, but it was never called \(its tool digest counts write_note's calls as mcp__a__write_note x2, write_note x1\)\n/,
    );
  });
});

describe('matchers on a build whose MCP server has no tools list (docs/vitest.md)', () => {
  it('hold names to the tools the run was offered, as scenario names are held once the server lists them', async () => {
    const result = await testRun({
      agent: {
        ...AGENT,
        agent: {
          ...AGENT.agent,
          permissions: { mode: 'allow' },
          mcps: [{ name: 'notes', command: [process.execPath, NAMES_SERVER, 'write_note', 'delete_note'] }],
        },
      },
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      expectations: { terminal_tool: 'finish' },
      script: [{ tool_calls: [{ name: 'mcp__notes__write_note', args: { id: '1' } }] }, { tool_calls: [{ name: 'finish', args: {} }] }, { text: 'done' }],
    });
    expect(result).toPass();
    expect(result).not.toHaveCalledTool('delete_note');
    expect(result).not.toHaveCalledTool('mcp__notes__delete_note');
    // Names the server does not offer would pass vacuously: they throw.
    expect(() => toHaveCalledTool(result, 'delete_nte')).toThrow(/toHaveCalledTool: the build has no tool "delete_nte"; did you mean "delete_note"\?/);
    expect(() => toHaveCalledTool(result, 'mcp__zz__delete_note')).toThrow(/the build has no tool "mcp__zz__delete_note"/);
    expect(() => toHaveCalledTool(result, '/^zzz/')).toThrow(/the pattern \/\^zzz\/ matches none of the build's tools/);
    // A /regex/ never sees the mcp__<server>__ prefix the list shows: said as the scenario check says it.
    expect(() => toHaveCalledTool(result, '/^mcp__notes__w/')).toThrow(
      "toHaveCalledTool: the pattern /^mcp__notes__w/ matches none of the build's tools (its tools: lookup, finish, mcp__notes__write_note, mcp__notes__delete_note); a /regex/ sees the names without their mcp__<server>__ prefix: lookup, finish, write_note, delete_note",
    );
    expect(() => toHaveCalledToolsInOrder(result, ['/^mcp__/'])).toThrow(
      '; a /regex/ sees the names without their mcp__<server>__ prefix: lookup, finish, write_note, delete_note',
    );
  });
});

describe("matchers' argument names on an MCP tool whose input schema is closed (docs/vitest.md)", () => {
  const kvAgent = (tools?: string[]) => ({
    ...AGENT,
    agent: {
      ...AGENT.agent,
      permissions: { mode: 'allow' as const },
      mcps: [{ name: 'kv', command: [process.execPath, NAMES_SERVER, 'get_item(key)', 'put_item'], ...(tools ? { tools } : {}) }],
    },
  });
  const kvScript = [{ tool_calls: [{ name: 'mcp__kv__get_item', args: { key: '1' } }] }, { tool_calls: [{ name: 'finish', args: {} }] }, { text: 'done' }];
  const KEE = 'toHaveCalledTool: arguments at kee: argument "kee" is not a parameter of mcp__kv__get_item; expected one of: key; did you mean "key"?';
  const kvRun = (tools?: string[]) =>
    testRun({ agent: kvAgent(tools), inputs: { messages: [{ role: 'user', content: 'go' }] }, expectations: { terminal_tool: 'finish' }, script: kvScript });
  // The run without a tools list, read by two tests (one server start fewer).
  const unlisted = once(() => kvRun());

  for (const tools of [undefined, ['get_item', 'put_item']]) {
    it(`testRun: are held to the parameters its server listed (${tools ? 'with' : 'without'} a tools list)`, async () => {
      const result = await (tools ? kvRun(tools) : unlisted());
      expect(result).toPass();
      expect(() => toHaveCalledTool(result, 'get_item', { kee: '1' })).toThrow(KEE);
      expect(() => toHaveCalledTool(result, 'mcp__kv__get_item', { kee: '1' })).toThrow(KEE);
      expect(result).toHaveCalledTool('get_item', { key: '1' });
      // put_item's schema is open: any argument name may be one.
      expect(result).not.toHaveCalledTool('put_item', { anything: 1 });
    });
  }

  it("testRun: still holds the request's own names to what the servers list", async () => {
    const result = await testRun({
      agent: kvAgent(),
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      expectations: { terminal_tool: 'get_iten' },
      script: kvScript,
    });
    expect(result.stop_reason).toBe('error');
    expect(result.verdict_reason).toContain(
      'CONFIG_INVALID: testRun at expectations.terminal_tool: expectations.terminal_tool names no tool of the agent: "get_iten"',
    );
    expect(result.tools).toEqual([]);
  });

  it('runScenario: are held to them too, as the scenario check on them is', async () => {
    const dir = tempDir({
      'agent.yaml': JSON.stringify(kvAgent()),
      'kv.scenarios.yaml': JSON.stringify({
        defaults: { agent: 'agent.yaml', inputs: { messages: [{ role: 'user', content: 'go' }] }, model: { script: kvScript } },
        scenarios: [
          { name: 'listed', expect: { terminal_tool: 'finish' } },
          { name: 'misspelt', expect: { checks: [{ tool_not_called: { tool: 'get_iten' } }] } },
        ],
      }),
    });
    const row = await runScenario(join(dir, 'kv.scenarios.yaml'), 'listed', { cwd: dir });
    expect(row).toPass();
    expect(() => toHaveCalledTool(row, 'get_item', { kee: '1' })).toThrow(KEE);
    expect(row).toHaveCalledTool('get_item', { key: '1' });
    // The scenario's own names are still held to what its server lists.
    const misspelt = await runScenario(join(dir, 'kv.scenarios.yaml'), 'misspelt', { cwd: dir });
    expect(misspelt.error).toMatchObject({ type: 'CONFIG_INVALID', message: expect.stringContaining('names no tool of the agent: "get_iten"') });
  });

  it('list each tool once in the refusal of an unknown name, by its full name', async () => {
    const result = await unlisted();
    let message = '';
    try {
      toHaveCalledTool(result, 'get_iten');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('the build has no tool "get_iten"; did you mean "get_item"?');
    // The digest's get_item (no server part) is not listed again beside mcp__kv__get_item.
    const listed = /\(its tools: ([^)]*)\)$/.exec(message)?.[1]?.split(', ');
    expect(listed?.sort()).toEqual(['finish', 'lookup', 'mcp__kv__get_item', 'mcp__kv__put_item']);
  });
});

describe('matchers on a resumed result (docs/vitest.md)', () => {
  it("hold argument names to what the run's servers listed when it resumed, as on testRun's result", async () => {
    const paused = await testRun({
      agent: {
        ...AGENT,
        agent: {
          ...AGENT.agent,
          permissions: { mode: 'allow_reads' },
          mcps: [{ name: 'kv', command: [process.execPath, NAMES_SERVER, 'get_item(key)'] }],
        },
      },
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      script: [{ tool_calls: [{ name: 'mcp__kv__get_item', args: { key: '1' } }] }, { text: 'done' }],
    });
    expect(paused.stop_reason).toBe('paused');
    const resumed = await resumeTestRun({ run_id: paused.run_id as string, decision: 'approve' });
    expect(resumed).toHaveCalledTool('get_item', { key: '1' });
    expect(() => toHaveCalledTool(resumed, 'get_item', { kee: '1' })).toThrow(
      /toHaveCalledTool: arguments at kee: argument "kee" is not a parameter of mcp__kv__get_item; expected one of: key/,
    );
  });
});
