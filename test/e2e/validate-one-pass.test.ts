import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runMain } from '../helpers/run-main.js';
import { AGENT_YAML, runCli } from './cli.js';

// Refusals at load (exit 2, nothing run or written) run the CLI's entry in-process (runMain) where
// the built CLI already refuses for that command: validate's file problems (validateEveryCase),
// run's flag and suite problems (runRefusingAll; runRefusingFiles is in-process), and test-run's
// build problems; test-run's bad --script in commands.test.ts.

/** The located problem lines of a CLI run's output, in the order printed. */
const located = (output: string) =>
  output
    .split('\n')
    .filter((line) => /^\S+\.yaml:\d+:\d+ at /.test(line))
    .map((line) => line.replace(/^.*\//, ''));

/** A validate-only case's view of the one validate run of every case (validateCase). */
interface ValidatedCase {
  /** The exit code of that run: 2, as every case has problems. */
  exitCode: number | undefined;
  /** The lines of the output naming a file of this case's folder, each ending in a newline. */
  all: string;
  /**
   * How many problems those lines give, and in how many files: what the summary line of a validate
   * of this case alone would say (the last test holds the summary line to the count of every line).
   */
  problems: { count: number; files: number };
}

/** Every validate-only case of this file, as `folder -> [paths to validate, files]`. */
const CASES = new Map<string, [paths: string[], files: Record<string, string>]>();

/**
 * One `agentcheck validate` of every case's files, each case in a folder of its own (so each
 * keeps its file names, agent.yaml among them): validate checks each file on its own, so a case's
 * problems are the lines naming its folder. Read by every test that takes its case from validateCase.
 */
const validateEveryCase = shared(async (dir) => {
  const files = [...CASES].flatMap(([folder, [, caseFiles]]) => Object.entries(caseFiles).map(([path, text]) => [join(folder, path), text]));
  const root = dir(Object.fromEntries(files));
  const paths = [...CASES].flatMap(([folder, [casePaths]]) => casePaths.map((path) => join(folder, path)));
  const result = await runCli(['validate', ...paths], root);
  return { root, result };
});

/** The problem lines of a validate output under `folder` (each starts with its file's path). */
const problemLines = (output: string, folder: string) => output.split('\n').filter((line) => line.startsWith(`${folder}/`));

/** Registers a case (call at describe level): the files of `folder`, `paths` among them validated; returns its view. */
function validateCase(folder: string, paths: string[], files: Record<string, string>): () => Promise<ValidatedCase> {
  CASES.set(folder, [paths, files]);
  return async () => {
    const { root, result } = await validateEveryCase();
    const lines = problemLines(result.all, join(root, folder));
    const files = new Set(lines.map((line) => line.slice(0, line.indexOf(':'))));
    return {
      exitCode: result.exitCode,
      all: lines.map((line) => `${line}\n`).join(''),
      problems: { count: lines.length, files: files.size },
    };
  };
}

/** A scenario with a key holding terminal escapes and a bidi override. */
const ESCAPED_KEY = {
  'agent.yaml': AGENT_YAML,
  'y.scenario.yaml':
    'name: x\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{text: hi}]}\n"\\e[2J\\e[31mFAKE OK\\e[0m\\u202e": 1\n',
};

/**
 * One `run .` with a bad --reporter, a cassettes.dir that is a file (agentcheck.config.yaml) and
 * two scenario files with a problem each (typo.scenario.yaml, y.scenario.yaml of ESCAPED_KEY): run
 * finds each on its own and prints them all. Read by the escaped-key test and the flags test.
 */
const runRefusingAll = shared(async (dir) => {
  const files = {
    ...ESCAPED_KEY,
    'tapes.txt': 'not a folder\n',
    'agentcheck.config.yaml': 'cassettes: {mode: replay, dir: tapes.txt}\n',
    'typo.scenario.yaml': ['name: typo', 'agent: agent.yaml', 'inputs:', '  mesages: [{role: user, content: hi}]', ''].join('\n'),
  };
  return runCli(['run', '.', '--reporter', 'jsn', '--out', 'out'], dir(files));
});

/**
 * One `run` of four files that are no scenario files or cannot be read as one (a scenarios file
 * whose list a << brings in, a build, two suite configs named otherwise): each is refused in one
 * line of its own. Read by the merge-key test and the suite-config test.
 */
const runRefusingFiles = shared(async (dir) => {
  const root = dir({
    'bot.yaml': 'id: bot\nagent:\n  name: Bot\n  tools: [{name: lookup, description: d, returns: {ok: true}}]\n',
    'v.scenarios.yaml': '<<:\n  scenarios:\n    - {name: a, agent: bot.yaml, inputs: {messages: [{role: user, content: hi}]}, model: {script: [{text: ok}]}}\n',
    'mb.yaml': '<<: {id: mb, agent: {name: MB}}\n',
    'other.yaml': 'scenarios: ["s.scenario.yaml"]\nrepeat: 1\n',
    'merged.yaml': '<<: {scenarios: ["*.scenario.yaml"]}\nrepeat: 2\n',
  });
  const result = await runMain(['run', 'v.scenarios.yaml', 'mb.yaml', 'other.yaml', 'merged.yaml', '--reporter', 'json', '--out', 'out'], root);
  return { dir: root, result };
});

/** The lines of a refusal on stderr, the first without its "agentcheck: invalid input: " prefix (checked here). */
function refusedLines(stderr: string): string[] {
  expect(stderr).toMatch(/^agentcheck: invalid input: /);
  return stderr
    .replace(/^agentcheck: invalid input: /, '')
    .trimEnd()
    .split('\n');
}

describe('agentcheck validate reports every problem of a file in one pass', () => {
  const typos = validateCase('typos', ['typos.scenario.yaml'], {
    'agent.yaml': AGENT_YAML,
    'typos.scenario.yaml': [
      'name: typos',
      'agent: agent.yaml',
      'inputs:',
      '  mesages: [{role: user, content: hi}]',
      'expect:',
      '  terminal_tol: finish',
      '  checks:',
      '    - tool_caled: {tool: lookup}',
      '',
    ].join('\n'),
  });
  it('a scenario with three typos gives three located errors, each saying the misspelt key', async () => {
    const result = await typos();
    expect(result.exitCode, result.all).toBe(2);
    const lines = located(result.all);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^typos\.scenario\.yaml:4:3 at inputs\.mesages: unknown key "mesages" \(did you mean "messages"\?\)/);
    expect(lines[1]).toMatch(/^typos\.scenario\.yaml:6:3 at expect\.terminal_tol: unknown key "terminal_tol" \(did you mean "terminal_tool"\?\)/);
    expect(lines[2]).toMatch(/^typos\.scenario\.yaml:8:7 at expect\.checks\[0\]\.tool_caled: unknown check kind "tool_caled".*did you mean "tool_called"\?/);
    expect(result.all).not.toContain('missing required key');
    expect(result.problems).toEqual({ count: 3, files: 1 });
  });

  const escapedKey = validateCase('escaped-key', ['y.scenario.yaml'], ESCAPED_KEY);
  it('a key with terminal escapes or a bidi override is quoted in the path too, in validate and run alike', async () => {
    const ran = await runRefusingAll();
    for (const result of [await escapedKey(), ran]) {
      expect(result.exitCode, result.all).toBe(2);
      expect(result.all).toContain(
        'y.scenario.yaml:5:1 at ["\\u001b[2J\\u001b[31mFAKE OK\\u001b[0m\\u202e"]: unknown key "\\u001b[2J\\u001b[31mFAKE OK\\u001b[0m\\u202e"',
      );
      expect(result.all).not.toContain('\u001b');
      expect(result.all).not.toContain('\u202e');
    }
  });

  const BUILD_TYPOS = { 'agent.yaml': 'id: typos\nagent:\n  nme: Typos\n  max_turn: 3\n  tools:\n    - name: t1\n      retuns: {ok: true}\n' };
  const buildTypos = validateCase('build-typos', ['agent.yaml'], BUILD_TYPOS);
  it('an agent build with three typos gives three located errors, not the missing keys they cause', async () => {
    const result = await buildTypos();
    expect(result.exitCode, result.all).toBe(2);
    expect(located(result.all)).toEqual([
      expect.stringMatching(/^agent\.yaml:3:3 at agent\.nme: unknown key "nme" \(did you mean "name"\?\); expected one of: name,/),
      expect.stringMatching(/^agent\.yaml:4:3 at agent\.max_turn: unknown key "max_turn" \(did you mean "max_turns"\?\)/),
      expect.stringMatching(/^agent\.yaml:7:7 at agent\.tools\[0\]\.retuns: unknown key "retuns" \(did you mean "returns"\?\)/),
    ]);
    // Neither the symptom of `nme` nor that of `retuns` (a tool with no implementation key).
    expect(result.all).not.toMatch(/missing required key|implementation key/);
    expect(result.problems).toEqual({ count: 3, files: 1 });
    // test-run loads the build the same way: every problem, exit 2.
    const run = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'hi'], tempDir(BUILD_TYPOS));
    expect(run.exitCode, run.all).toBe(2);
    expect(located(run.all.replace('agentcheck: invalid input: ', ''))).toHaveLength(3);
  });

  const keyNotScalar = validateCase('key-not-scalar', ['agent.yaml'], {
    'agent.yaml': 'id: cx\nagent:\n  nme: X\n  ? [a, b]\n  : 1\n  tools:\n    - {name: t, description: d, returns: {[k]: 1}}\n',
  });
  it('a list or a mapping used as a key hides no other problem of its file, and is said in its place, not as an unknown key', async () => {
    const result = await keyNotScalar();
    expect(result.exitCode, result.all).toBe(2);
    const key = 'a mapping key must be a scalar such as a name, not a list or a mapping';
    expect(located(result.all)).toEqual([
      expect.stringMatching(/^agent\.yaml:3:3 at agent\.nme: unknown key "nme" \(did you mean "name"\?\)/),
      `agent.yaml:4:5 at agent: ${key}`,
      `agent.yaml:7:43 at agent.tools[0].returns: ${key}`,
    ]);
    expect(result.all).not.toContain('"a,b"');
    expect(result.problems).toEqual({ count: 3, files: 1 });
  });

  const external = validateCase('external', ['external.yaml'], {
    'agent.mjs': '',
    'external.yaml': 'id: ext\nexternal:\n  command: [node, ./agent.mjs]\n  env:\n    N: 5\n    OPENAI_BASE_URL: http://x\n  timeout_ms: -1\n',
  });
  it('an external build gives its format problems and its reserved env name together', async () => {
    const result = await external();
    expect(result.exitCode, result.all).toBe(2);
    expect(located(result.all)).toEqual([
      'external.yaml:5:8 at external.env.N: expected string, got number 5',
      expect.stringMatching(/^external\.yaml:6:5 at external\.env\.OPENAI_BASE_URL: "OPENAI_BASE_URL" is set by agentcheck/),
      'external.yaml:7:15 at external.timeout_ms: expected a number >= 1, got number -1',
    ]);
    expect(result.problems).toEqual({ count: 3, files: 1 });
  });

  const requiredKeyTypos = validateCase('required-key-typos', ['skills.yaml', 'external.yaml', 'checks.scenario.yaml'], {
    'agent.yaml': AGENT_YAML,
    'skills.yaml': 'id: skills\nagent:\n  name: S\n  skills:\n    - {name: t, descripton: d, body: b}\n    - {reff: s12}\n',
    'external.yaml': 'id: ext\nexternal:\n  comand: [node, ./agent.mjs]\n',
    'checks.scenario.yaml': [
      'name: checks',
      'agent: agent.yaml',
      'inputs: {messages: [{role: user, content: hi}]}',
      'expect:',
      '  checks:',
      '    - spans: {qeury: {filtering: {operator: and, conditions: []}}}',
      '    - tool_returned: {tol: lookup}',
      '',
    ].join('\n'),
  });
  it('a misspelt required key of an inline skill, a skill ref, an external agent or a check is one problem: the typo', async () => {
    const result = await requiredKeyTypos();
    expect(result.exitCode, result.all).toBe(2);
    expect(located(result.all)).toEqual([
      expect.stringMatching(/^skills\.yaml:5:17 at agent\.skills\[0\]\.descripton: unknown key "descripton" \(did you mean "description"\?\)/),
      expect.stringMatching(/^skills\.yaml:6:8 at agent\.skills\[1\]\.reff: unknown key "reff" \(did you mean "ref"\?\)/),
      expect.stringMatching(/^external\.yaml:3:3 at external\.comand: unknown key "comand" \(did you mean "command"\?\)/),
      expect.stringMatching(/^checks\.scenario\.yaml:6:15 at expect\.checks\[0\]\.spans\.qeury: unknown key "qeury" \(did you mean "query"\?\)/),
      expect.stringMatching(/^checks\.scenario\.yaml:7:23 at expect\.checks\[1\]\.tool_returned\.tol: unknown key "tol" \(did you mean "tool"\?\)/),
    ]);
    expect(result.all).not.toMatch(/missing required key|expected an inline skill|exactly one of|expected a query|expected a tool name/);
  });

  const headers = validateCase('headers', ['agent.yaml'], {
    'agent.yaml': [
      'id: headers',
      'agent:',
      '  name: Headers',
      '  tools:',
      '    - name: api',
      '      http:',
      '        url: https://api.test/items',
      '        headers: {Bad Header: v, X-Query: "{{ args.q }}\\n", X-Fine: "q={{ args.q }}", X.Y: "v\\n"}',
      '  mcps:',
      '    - name: web',
      '      url: https://mcp.test/mcp',
      '      headers:',
      '        "X:Token": v',
      '        Authorization: "Bearer sk-live-0123456789\\r"',
      '',
    ].join('\n'),
  });
  it('headers fetch could never send, of an http tool and of an MCP url server, each at its key or value, the value never quoted', async () => {
    const result = await headers();
    expect(result.exitCode, result.all).toBe(2);
    expect(located(result.all)).toEqual([
      expect.stringMatching(
        /^agent\.yaml:8:19 at agent\.tools\[0\]\.http\.headers\["Bad Header"\]: header name "Bad Header" cannot be sent: it holds " "; expected an HTTP token/,
      ),
      'agent.yaml:8:43 at agent.tools[0].http.headers.X-Query: a header value cannot hold a line break (LF, character 13 of the value): expected one line of text',
      // A name holding a dot is quoted in brackets: written out, it would read as a path of two keys.
      'agent.yaml:8:92 at agent.tools[0].http.headers["X.Y"]: a header value cannot hold a line break (LF, character 2 of the value): expected one line of text',
      expect.stringMatching(/^agent\.yaml:13:9 at agent\.mcps\[0\]\.headers\.X:Token: header name "X:Token" cannot be sent: it holds ":"/),
      'agent.yaml:14:24 at agent.mcps[0].headers.Authorization: a header value cannot hold a line break (CR, character 26 of the value): expected one line of text',
    ]);
    expect(result.all).not.toContain('sk-live');
  });

  const duplicateNames = validateCase('duplicate-names', ['dups.scenarios.yaml'], {
    'agent.yaml': AGENT_YAML,
    'dups.scenarios.yaml': [
      'defaults:',
      '  agent: agent.yaml',
      'scenarios:',
      '  - name: one',
      '    inputs: {messages: [{role: user, content: hi}]}',
      '  - name: one',
      '    inputs: {mesages: [{role: user, content: hi}]}',
      '  - name: two',
      '    inputs: {messages: [{role: user, content: hi}]}',
      '    expect: {terminal_tool: lokup}',
      '',
    ].join('\n'),
  });
  it('a duplicate scenario name is reported beside the other problems of that scenario and of others', async () => {
    const result = await duplicateNames();
    expect(result.exitCode, result.all).toBe(2);
    expect(located(result.all)).toEqual([
      'dups.scenarios.yaml:6:11 at scenarios[1].name: duplicate scenario name "one" (also scenarios[0]); names must be unique within a file',
      expect.stringMatching(/^dups\.scenarios\.yaml:7:14 at scenarios\[1\]\.inputs\.mesages: unknown key "mesages" \(did you mean "messages"\?\)/),
      expect.stringMatching(/^dups\.scenarios\.yaml:10:29 at scenarios\[2\]\.expect\.terminal_tool: .*"lokup".*did you mean "lookup"\?/),
    ]);
  });

  const scriptDeltaBuild = validateCase('script-delta-build', ['.'], {
    'agent.yaml': AGENT_YAML,
    'd5.scenario.yaml': [
      'name: d',
      'agent: ./agent.yaml',
      'delta: {set: {agent: {max_turns: 4}}, remov: [agent.tools.0]}',
      'inputs:',
      '  messages: [{role: user, content: "y"}]',
      'model:',
      '  script:',
      '    - txt: "Refund created."',
      '',
    ].join('\n'),
    'combo.scenario.yaml': 'name: x\nagent: ./nope.yaml\ninputs: {messages: [{role: user, content: "y"}]}\ndelta: {sett: {}}\nmodel: {script: [{txt: ok}]}\n',
  });
  it("a scenario's script typo hides neither its delta typo nor a missing build file", async () => {
    const result = await scriptDeltaBuild();
    expect(result.exitCode, result.all).toBe(2);
    expect(located(result.all)).toEqual([
      // The line ends in the scenario's folder, which `located` cuts after its last slash.
      expect.stringMatching(/^script-delta-build\)$/),
      expect.stringMatching(/^combo\.scenario\.yaml:4:9 at delta\.sett: unknown key "sett" \(did you mean "set"\?\)/),
      expect.stringMatching(/^combo\.scenario\.yaml:5:19 at model\.script\[0\]\.txt: unknown key "txt" \(did you mean "text"\?\)/),
      expect.stringMatching(/^d5\.scenario\.yaml:3:39 at delta\.remov: unknown key "remov" \(did you mean "remove"\?\)/),
      expect.stringMatching(/^d5\.scenario\.yaml:8:7 at model\.script\[0\]\.txt: unknown key "txt" \(did you mean "text"\?\)/),
    ]);
    expect(result.all).toMatch(
      /combo\.scenario\.yaml:2:8 at agent: agent build not found: \S*nope\.yaml \(a path in a scenario is relative to the scenario file's folder, \S+\)\n/,
    );
    expect(result.problems).toEqual({ count: 5, files: 2 });
  });

  const skillRef = validateCase('skill-ref', ['bad4.yaml'], {
    'bad4.yaml': 'id: bot\nagent:\n  name: b\n  tools:\n    - {name: t9, description: x, returns: 1, colour: 1}\n  skills:\n    - ref: ./skills/nope\n',
  });
  it("an agent build's missing skill ref is reported beside a format problem of its tools", async () => {
    const result = await skillRef();
    expect(result.exitCode, result.all).toBe(2);
    expect(result.all).toMatch(/bad4\.yaml:5:46 at agent\.tools\[0\]\.colour: unknown key "colour"/);
    expect(result.all).toMatch(
      /bad4\.yaml:7:12 at agent\.skills\[0\]\.ref: skill folder "\S*skills\/nope" does not exist; expected a folder that holds SKILL\.md \(a ref is relative to the file that holds it\)/,
    );
    expect(result.problems).toEqual({ count: 2, files: 1 });
  });

  const flowComponents = validateCase('flow-components', ['fbad2.yaml'], {
    'fbad2.yaml': [
      'id: f2',
      'agent:',
      '  name: F',
      '  tools:',
      '    - {name: c1, description: x, chain: {steps: [{tool: echo, inputs: {text: y}, on_failure: {action: explode}}]}}',
      '    - {name: c2, description: x, chain: {steps: [{tool: nope_tool2}]}}',
      'flow:',
      '  entry_point: a',
      '  components:',
      '    - {name: a, type: deterministic_step, tool_name: raed_file, inputs: [{literal: x, as: path}]}',
      '    - {name: b, type: human_inptu}',
      '  routers:',
      '    - {from: a, to: b}',
      '    - {from: b, to: end}',
      '',
    ].join('\n'),
  });
  it("a format problem in one flow component hides neither another component's unknown tool nor another tool's chain", async () => {
    const result = await flowComponents();
    expect(result.exitCode, result.all).toBe(2);
    expect(located(result.all)).toEqual([
      expect.stringMatching(/^fbad2\.yaml:5:\d+ at agent\.tools\[0\]\.chain\.steps\[0\]\.on_failure\.action: expected one of "stop"/),
      expect.stringMatching(/^fbad2\.yaml:6:\d+ at agent\.tools\[1\]\.chain\.steps\[0\]\.tool: unknown tool "nope_tool2"/),
      expect.stringMatching(/^fbad2\.yaml:10:\d+ at flow\.components\[0\]\.tool_name: unknown tool "raed_file"/),
      expect.stringMatching(/^fbad2\.yaml:11:23 at flow\.components\[1\]\.type: expected one of .* got string "human_inptu" \(did you mean "human_input"\?\)$/),
    ]);
  });

  const misplacedKeys = validateCase('misplaced-keys', ['plan6.yaml'], {
    'plan6.yaml': [
      'id: plan6',
      'agent:',
      '  name: P',
      '  tools:',
      '    - name: p',
      '      description: r',
      '      plan:',
      '        steps:',
      '          - tools:',
      '              - {name: echo, arguments: {text: a}, items: "{{ x }}", condition: "{{ y }}", if: {tools: []}}',
      '              - {name: if_else, condition: "{{ x }}", if: {tools: []}, arguments: {a: 1}, returns: r}',
      '    - name: c',
      '      description: c',
      '      chain:',
      '        steps:',
      '          - {id: a, tool: echo, inputs: {text: y}, on_failure: {action: stop, max_retries: 3, backoff_ms: 5, next: b}}',
      '          - {id: b, tool: echo, inputs: {text: b}}',
      '',
    ].join('\n'),
  });
  it("every key that does not belong to a plan call or to a chain step's on_failure, as every misplaced key of a flow component", async () => {
    const result = await misplacedKeys();
    expect(result.exitCode, result.all).toBe(2);
    const calls = 'agent.tools[0].plan.steps[0].tools';
    const policy = 'agent.tools[1].chain.steps[0].on_failure';
    expect(located(result.all)).toEqual([
      `plan6.yaml:10:52 at ${calls}[0].items: "items" does not belong to a call to echo; expected keys: name, arguments, returns`,
      `plan6.yaml:10:70 at ${calls}[0].condition: "condition" does not belong to a call to echo; expected keys: name, arguments, returns`,
      `plan6.yaml:10:92 at ${calls}[0].if: "if" does not belong to a call to echo; expected keys: name, arguments, returns`,
      `plan6.yaml:11:72 at ${calls}[1].arguments: "arguments" does not belong to system tool if_else; expected keys: name, condition, if, else`,
      `plan6.yaml:11:91 at ${calls}[1].returns: "returns" does not belong to system tool if_else (system tools return nothing); expected keys: name, condition, if, else`,
      `plan6.yaml:16:79 at ${policy}.max_retries: "max_retries" does not apply to action "stop"; it is used by action "retry"`,
      `plan6.yaml:16:95 at ${policy}.backoff_ms: "backoff_ms" does not apply to action "stop"; it is used by action "retry"`,
      `plan6.yaml:16:110 at ${policy}.next: "next" does not apply to action "stop"; it is used by action "continue" or "retry"`,
    ]);
    expect(result.problems).toEqual({ count: 8, files: 1 });
  });

  const planCallKeys = validateCase('plan-call-keys', ['m1.yaml'], {
    'm1.yaml': [
      'id: m1',
      'agent:',
      '  name: M',
      '  tools:',
      '    - name: pl',
      '      parameters: {type: object, properties: {}}',
      '      plan:',
      '        steps:',
      '          - tools:',
      '              - {name: echo, arguments: {txt: hi}, items: x, foo: 1}',
      '    - name: ch',
      '      parameters: {type: object, properties: {}}',
      '      chain:',
      '        steps:',
      '          - {id: s1, tool: echo, inputs: {text: a}, on_failure: {action: stop, max_retries: 3, foo: 1}}',
      '',
    ].join('\n'),
  });
  it("an unknown key of a plan call or of an on_failure hides no other problem of it; the call's is told its kind's keys", async () => {
    const result = await planCallKeys();
    expect(result.exitCode, result.all).toBe(2);
    const call = 'agent.tools[0].plan.steps[0].tools[0]';
    const policy = 'agent.tools[1].chain.steps[0].on_failure';
    expect(located(result.all)).toEqual([
      `m1.yaml:10:42 at ${call}.arguments.txt: tool "echo" has no argument "txt"; its arguments are: text; did you mean "text"?`,
      `m1.yaml:10:52 at ${call}.items: "items" does not belong to a call to echo; expected keys: name, arguments, returns`,
      `m1.yaml:10:62 at ${call}.foo: unknown key "foo"; expected one of: name, arguments, returns`,
      `m1.yaml:15:80 at ${policy}.max_retries: "max_retries" does not apply to action "stop"; it is used by action "retry"`,
      `m1.yaml:15:96 at ${policy}.foo: unknown key "foo"; expected one of: action, max_retries, backoff_ms, continue_on_max_retries, next`,
    ]);
    expect(result.problems).toEqual({ count: 5, files: 1 });
  });

  const componentKeys = validateCase('component-keys', ['f1.yaml'], {
    'f1.yaml': [
      'id: f1',
      'agent:',
      '  name: F',
      'flow:',
      '  entry_point: s',
      '  components:',
      '    - {name: s, type: deterministic_step, tool_name: nope, foo: 1}',
      '    - name: p',
      '      type: plan',
      '      plan:',
      '        steps:',
      '          - tools:',
      '              - {name: echo, arguments: {txt: hi}, items: x, bar: 1}',
      '  routers:',
      '    - {from: s, to: p}',
      '    - {from: p, to: end}',
      '',
    ].join('\n'),
  });
  it("an unknown key of a flow component or of a call in its plan hides no other problem of it; each is told its own kind's keys", async () => {
    const result = await componentKeys();
    expect(result.exitCode, result.all).toBe(2);
    const call = 'flow.components[1].plan.steps[0].tools[0]';
    expect(located(result.all)).toEqual([
      expect.stringMatching(/^f1\.yaml:7:54 at flow\.components\[0\]\.tool_name: unknown tool "nope"; expected an agent tool or a built-in/),
      'f1.yaml:7:60 at flow.components[0].foo: unknown key "foo"; expected one of: name, type, tool_name, inputs',
      `f1.yaml:13:42 at ${call}.arguments.txt: tool "echo" has no argument "txt"; its arguments are: text; did you mean "text"?`,
      `f1.yaml:13:52 at ${call}.items: "items" does not belong to a call to echo; expected keys: name, arguments, returns`,
      `f1.yaml:13:62 at ${call}.bar: unknown key "bar"; expected one of: name, arguments, returns`,
    ]);
    expect(result.problems).toEqual({ count: 5, files: 1 });
  });

  const kindKeysBesideBadValues = validateCase('kind-keys-bad-values', ['fb3.yaml'], {
    'fb3.yaml': [
      'id: fb3',
      'agent:',
      '  name: F',
      '  tools:',
      '    - name: c1',
      '      parameters: {type: object, properties: {x: {type: string}}}',
      '      command: {argv: ["", "{{ args.y }}"], allow_env: ["A=B"], max_output_bytes: 0}',
      '    - name: p',
      '      parameters: {type: object}',
      '      plan:',
      '        steps:',
      '          - tools:',
      '              - {name: echo, arguments: {text: x}, returns: 5, items: "{{ a }}", foo: 1}',
      'flow:',
      '  entry_point: c',
      '  components:',
      '    - {name: c, type: agent, tool_name: echo, max_turns: 0}',
      '    - {name: d, type: human_input, toolset: [echo], inputs: "context:x"}',
      '  routers:',
      '    - {from: c, to: d}',
      '    - {from: d, to: end}',
      '',
    ].join('\n'),
  });
  it("a bad value of a flow component, a plan call or a command tool hides none of that entry's other problems", async () => {
    const result = await kindKeysBesideBadValues();
    expect(result.exitCode, result.all).toBe(2);
    const call = 'agent.tools[1].plan.steps[0].tools[0]';
    expect(located(result.all)).toEqual([
      'fb3.yaml:7:24 at agent.tools[0].command.argv[0]: expected the program to run (argv[0]: a name on PATH or a path), got "", which no process can be',
      'fb3.yaml:7:28 at agent.tools[0].command.argv[1]: template "{{ args.y }}" names no parameter of the tool; expected one of: x; did you mean "x"?',
      expect.stringMatching(/^fb3\.yaml:7:57 at agent\.tools\[0\]\.command\.allow_env\[0\]: expected an environment variable name .*, got "A=B"/),
      'fb3.yaml:7:83 at agent.tools[0].command.max_output_bytes: expected a number >= 1, got number 0',
      `fb3.yaml:13:61 at ${call}.returns: expected string, got number 5`,
      `fb3.yaml:13:64 at ${call}.items: "items" does not belong to a call to echo; expected keys: name, arguments, returns`,
      `fb3.yaml:13:82 at ${call}.foo: unknown key "foo"; expected one of: name, arguments, returns`,
      'fb3.yaml:17:30 at flow.components[0].tool_name: "tool_name" does not apply to an agent component; it takes: name, type, inputs, toolset, instructions, prompt, max_turns',
      'fb3.yaml:17:58 at flow.components[0].max_turns: expected a number >= 1, got number 0',
      'fb3.yaml:18:36 at flow.components[1].toolset: "toolset" does not apply to a human_input component; it takes: name, type, inputs',
      'fb3.yaml:18:61 at flow.components[1].inputs: expected array, got string "context:x"',
    ]);
    expect(result.problems).toEqual({ count: 11, files: 1 });
  });

  const otherToolKindKeys = validateCase('other-tool-kind-keys', ['kinds.yaml'], {
    'kinds.yaml': [
      'id: kinds',
      'agent:',
      '  name: K',
      '  tools:',
      '    - {name: c1, description: c, command: {argv: [echo, hi], url: "https://x.example"}}',
      '    - {name: h1, description: h, http: {url: "https://x.example", argv: [echo]}}',
      '',
    ].join('\n'),
  });
  it("a command tool's url and an http tool's argv are said to belong to the other kind of tool, with the block's keys", async () => {
    const result = await otherToolKindKeys();
    expect(result.exitCode, result.all).toBe(2);
    expect(located(result.all)).toEqual([
      'kinds.yaml:5:62 at agent.tools[0].command.url: "url" belongs to an http tool, not a command tool; expected one of: argv, timeout_ms, allow_env, max_output_bytes, refuse_option_args',
      'kinds.yaml:6:67 at agent.tools[1].http.argv: "argv" belongs to a command tool, not an http tool; expected one of: method, url, headers, body, timeout_ms',
    ]);
    expect(result.problems).toEqual({ count: 2, files: 1 });
  });

  it("the suite grader's bad script is said once, at the config, not at each judge check, and the config is not counted valid", async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'judge:\n  model: {provider: scripted, model: scripted, script: [{text: "x", error: {message: e}}, {tool_calls: []}]}\n',
      'bot.yaml': 'id: bot\nagent:\n  name: Bot\n  tools:\n    - {name: a, description: a, returns: 1}\n',
      'j.scenario.yaml': [
        'name: j',
        'agent: bot.yaml',
        'inputs: {messages: [{role: user, content: hi}]}',
        'model: {script: [{text: ok}]}',
        'expect:',
        '  checks:',
        '    - judge: {rubric: "is it ok"}',
        '    - judge: {rubric: "is it fine"}',
        '',
      ].join('\n'),
    });
    const result = await runMain(['validate', '.'], dir);
    expect(result.exitCode, result.all).toBe(2);
    // Said whole: the message holds a "/" that located() would cut at.
    const lines = result.all.split('\n').filter((line) => / at judge\.| at expect\./.test(line));
    expect(lines).toEqual([
      expect.stringMatching(
        /agentcheck\.config\.yaml:2:69 at judge\.model\.script\[0\]\.error: an entry is either an answer \(text and\/or tool_calls\) or an error, not both/,
      ),
      expect.stringMatching(
        /agentcheck\.config\.yaml:2:104 at judge\.model\.script\[1\]\.tool_calls: an entry needs text, tool_calls or error: an empty tool_calls list answers nothing/,
      ),
    ]);
    expect(result.all).toContain('2 problem(s) in 1 file(s)');
    expect(result.all).toContain('0 config(s)');
  });

  it("the suite grader's bad parameter does not hide its missing model, said once beside it where a judge check uses it", async () => {
    const dir = tempDir({
      'agentcheck.config.yaml': 'judge: {model: {provider: openai, parameters: {temprature: 0}}}\n',
      'bot.yaml': 'id: bot\nagent:\n  name: Bot\n  tools:\n    - {name: a, description: a, returns: 1}\n',
      'j.scenario.yaml':
        'name: j\nagent: bot.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\nexpect: {checks: [{judge: {rubric: ok}}, {judge: {rubric: fine}}]}\n',
    });
    const result = await runMain(['validate', '.'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(located(result.all)).toEqual([
      'agentcheck.config.yaml:1:16 at judge.model: a grader model needs `provider` and `model` (or a `script` for the scripted model); the judge checks that name no model of their own use this one',
      expect.stringMatching(/^agentcheck\.config\.yaml:1:48 at judge\.model\.parameters\.temprature: unknown openai parameter "temprature"/),
    ]);
    // The scenario file is counted valid, as with either problem alone: both are the config's.
    expect(result.all).toContain('2 problem(s) in 1 file(s); valid: 1 agent build(s), 1 scenario file(s) with 1 scenario(s)');
  });
});

describe('agentcheck run stops on the list validate prints', () => {
  it("a config's skill folder and model typo, the variant that cannot apply and a scenario's check typo, all at once", async () => {
    const dir = tempDir({
      'bot.yaml': 'id: bot\nagent:\n  name: Bot\n  tools:\n    - {name: a, description: a, returns: 1}\n',
      's.scenario.yaml':
        'name: s\nagent: bot.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: ok}]}\nexpect: {checks: [{outptu: {}}]}\n',
      'agentcheck.config.yaml': 'variants:\n  v1: {remove: ["agent.tools[name=zz]"]}\nskills: {forced: [./nope]}\nmodel: {parameters: {temprature: 1}}\n',
    });
    const expected = [
      /agentcheck\.config\.yaml:2:17 at variants\.v1\.remove\[0\]: variant "v1" does not apply to the build bot\.yaml of scenario "s\.scenario\.yaml#s"/,
      /agentcheck\.config\.yaml:3:19 at skills\.forced\[0\]: skill folder "\S*nope" does not exist/,
      /agentcheck\.config\.yaml:4:34 at model\.parameters\.temprature: for the build bot\.yaml: unknown scripted parameter "temprature"/,
      /s\.scenario\.yaml:5:20 at expect\.checks\[0\]\.outptu: unknown check kind "outptu"/,
    ];
    const validate = await runMain(['validate', '.'], dir);
    expect(validate.exitCode, validate.all).toBe(2);
    for (const line of expected) expect(validate.all).toMatch(line);
    expect(validate.all).toContain('4 problem(s) in 2 file(s)');
    expect(validate.all).toContain('0 config(s)');
    const run = await runMain(['run', '--reporter', 'json', '--out', 'out'], dir);
    expect(run.exitCode, run.all).toBe(2);
    for (const line of expected) expect(run.all).toMatch(line);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it("a config's YAML merge key hides neither its variants' problems (one of them brought in by it) nor a scenario's", async () => {
    const dir = tempDir({
      'bot.yaml': 'id: bot\nagent:\n  name: Bot\n  tools: [{name: lookup, description: d, returns: {ok: true}}]\n',
      'a.scenario.yaml':
        'name: a\nagent: bot.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{tool_calls: [{name: lookp}]}, {text: ok}]}\n',
      'agentcheck.config.yaml': 'variants:\n  lean: &v {remove: ["agent.tools[name=nope]"]}\n  lean2:\n    <<: *v\n',
    });
    const validate = await runMain(['validate', '.'], dir);
    expect(validate.exitCode, validate.all).toBe(2);
    const lines = located(validate.all);
    expect(lines.map((line) => line.replace(/: .*/, ''))).toEqual([
      'agentcheck.config.yaml:2:22 at variants.lean.remove[0]',
      'agentcheck.config.yaml:4:5 at variants.lean2.<<',
      // The key the merge key brought in is said at the merge key.
      'agentcheck.config.yaml:4:5 at variants.lean2.remove[0]',
      'a.scenario.yaml:4:39 at model.script[0].tool_calls[0].name',
    ]);
    expect(lines[2]).toMatch(/variant "lean2" does not apply to the build bot\.yaml/);
    const run = await runMain(['run', '--reporter', 'json', '--out', 'out'], dir);
    expect(run.exitCode, run.all).toBe(2);
    expect(located(run.all.replace('agentcheck: invalid input: ', ''))).toEqual(lines);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  const MERGE_KEY_FILES = {
    'bot.yaml': 'id: bot\nagent:\n  name: Bot\n  tools: [{name: lookup, description: d, returns: {ok: true}}]\n',
    // The << at the top brings in the scenarios list: a scenarios file, whose top has no defaults to share keys through.
    'v.scenarios.yaml': '<<:\n  scenarios:\n    - {name: a, agent: bot.yaml, inputs: {messages: [{role: user, content: hi}]}, model: {script: [{text: ok}]}}\n',
    'mb.yaml': '<<: {id: mb, agent: {name: MB}}\n',
  };
  const mergeKeyKinds = validateCase('merge-key-kinds', ['v.scenarios.yaml', 'mb.yaml'], MERGE_KEY_FILES);
  it("a YAML merge key's advice follows the file's kind, its keys brought in by the << included; an agent build given to run is refused in one line", async () => {
    const merge = 'v.scenarios.yaml:1:1 at <<: YAML merge keys (<<) are not supported; write the keys out';
    const validate = await mergeKeyKinds();
    expect(validate.exitCode, validate.all).toBe(2);
    expect(located(validate.all)).toEqual([merge, 'mb.yaml:1:1 at <<: YAML merge keys (<<) are not supported; write the keys out']);
    // run says each file's problem in one line, in the order given.
    const { dir, result } = await runRefusingFiles();
    expect(result.exitCode, result.all).toBe(2);
    const lines = refusedLines(result.stderr);
    expect(lines).toHaveLength(4); // one per file given
    const [scenarios, build] = lines;
    expect(located(scenarios)).toEqual([merge]);
    // A build is what its keys say, a <<'s among them: run refuses it once, as a build, not its merge key with scenario advice.
    expect(build).toBe(
      `${join(dir, 'mb.yaml')}:1:1: is an agent build (id and agent at the top), not a scenario file: run takes scenario files (*.scenario.yaml, *.scenarios.yaml) or folders of them; to run a build once, use agentcheck test-run --agent FILE`,
    );
  });

  it('run refuses a suite config named otherwise in one line, known by its scenarios globs, keys a << brings in included', async () => {
    const { dir, result } = await runRefusingFiles();
    expect(result.exitCode, result.all).toBe(2);
    expect(refusedLines(result.stderr).slice(2)).toEqual(
      ['other.yaml', 'merged.yaml'].map(
        (file) => `${join(dir, file)}:1:1: is a suite config, not a scenario file: give it with --config FILE (run and validate read it from there)`,
      ),
    );
  });
});

describe("agentcheck run reports its flags' problems beside the suite's", () => {
  it('a bad --reporter and a cassettes.dir that is a file hide neither each other nor a scenario typo', async () => {
    const result = await runRefusingAll();
    expect(result.exitCode, result.all).toBe(2);
    expect(result.all).toMatch(/--reporter.*"jsn"/);
    expect(result.all).toMatch(/agentcheck\.config\.yaml:1:\d+ at cassettes\.dir: must be a folder, but this is a file/);
    expect(result.all).toMatch(/typo\.scenario\.yaml:4:3 at inputs\.mesages: unknown key "mesages"/);
  });
});

describe('agentcheck validate prints a suite config problems in line order, as run does', () => {
  it("a config's own problems and its variants' problems, found apart, are printed sorted by line, the same list as run's", async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      's.scenario.yaml': 'name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{text: ok}]}\n',
      'c/agentcheck.config.yaml': [
        'scenarios: ["../*.scenario.yaml"]',
        'variants:',
        '  lean: {remove: ["agent.tools[name=nosuch]"]}',
        '  odd: {sett: {}}',
        'repeat: 0',
        'extra_key: 1',
        '',
      ].join('\n'),
    });
    // Each located problem line of the config, from its file name on (run prefixes its first).
    const problems = (output: string) => output.split('\n').flatMap((line) => /agentcheck\.config\.yaml:\d+:\d+ at .*/.exec(line) ?? []);
    const validated = await runMain(['validate', '--config', 'c/agentcheck.config.yaml'], dir);
    expect(validated.exitCode, validated.all).toBe(2);
    const lines = problems(validated.all);
    expect(lines.map((line) => line.split(' ')[0])).toEqual([
      'agentcheck.config.yaml:3:19',
      'agentcheck.config.yaml:4:9',
      'agentcheck.config.yaml:5:9',
      'agentcheck.config.yaml:6:1',
    ]);
    const ran = await runMain(['run', '--out', '../out'], join(dir, 'c'));
    expect(ran.exitCode, ran.all).toBe(2);
    expect(problems(ran.all)).toEqual(lines);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});

describe('a part with a format problem hides no problem of its well-formed neighbours', () => {
  /** `file:line:col at path` of each located problem, in the order printed. */
  const places = (output: string) => output.split('\n').flatMap((line) => /[\w.-]+\.yaml:\d+:\d+ at \S+/.exec(line) ?? []);

  const script = ['- tool_calls: [{name: lookp, args: {id: "1"}}]', '- txt: done', '- {}', ''].join('\n');
  const SCRIPT_ENTRIES = {
    'agent.yaml': AGENT_YAML,
    's.scenario.yaml': `name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel:\n  script:\n${script.replace(/^/gm, '    ').trimEnd()}\n`,
    'script.yaml': script,
  };
  const scriptEntries = validateCase('script-entries', ['s.scenario.yaml'], SCRIPT_ENTRIES);
  it('script entries are each checked on their own, in a scenario and in test-run --script (with --terminal-tool beside them)', async () => {
    const validated = await scriptEntries();
    expect(validated.exitCode, validated.all).toBe(2);
    expect(places(validated.all)).toEqual([
      's.scenario.yaml:6:27 at model.script[0].tool_calls[0].name:',
      's.scenario.yaml:7:7 at model.script[1].txt:',
      's.scenario.yaml:8:7 at model.script[2]:',
    ]);
    const ran = await runMain(
      ['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 'script.yaml', '--terminal-tool', 'finsh'],
      tempDir(SCRIPT_ENTRIES),
    );
    expect(ran.exitCode, ran.all).toBe(2);
    expect(places(ran.all)).toEqual(['script.yaml:1:23 at [0].tool_calls[0].name:', 'script.yaml:2:3 at [1].txt:', 'script.yaml:3:3 at [2]:']);
    expect(ran.all).toContain('--terminal-tool: it names no tool of the agent: "finsh"');
  });

  const planChainSteps = validateCase('plan-chain-steps', ['b.yaml'], {
    'b.yaml': [
      'id: b',
      'agent:',
      '  name: B',
      '  tools:',
      '    - {name: lookup, description: l, returns: {ok: true}}',
      '    - name: p',
      '      description: p',
      '      plan:',
      '        max_iterations: 0',
      '        constants: {a: "{{ b }}", b: 1}',
      '        steps:',
      '          - tools: [{name: lookup, arguments: {}, retruns: x}]',
      '          - tools: [{name: nosuch}]',
      '    - name: c',
      '      description: c',
      '      chain:',
      '        max_steps: 0',
      '        steps:',
      '          - {id: s1, tool: lookup, on_failure: {action: explode}}',
      '          - {id: s2, tool: nosuch2, on_success: {next: nowhere}}',
      '          - {id: s3, tool: lookup, on_success: {next: s1}}',
      '',
    ].join('\n'),
  });
  it("a plan's or a chain's bad limit or bad step hides no problem of its other steps", async () => {
    const result = await planChainSteps();
    expect(result.exitCode, result.all).toBe(2);
    expect(places(result.all)).toEqual([
      'b.yaml:9:25 at agent.tools[1].plan.max_iterations:',
      'b.yaml:10:24 at agent.tools[1].plan.constants.a:',
      'b.yaml:12:51 at agent.tools[1].plan.steps[0].tools[0].retruns:',
      'b.yaml:13:28 at agent.tools[1].plan.steps[1].tools[0].name:',
      'b.yaml:17:20 at agent.tools[2].chain.max_steps:',
      'b.yaml:19:57 at agent.tools[2].chain.steps[0].on_failure.action:',
      'b.yaml:20:28 at agent.tools[2].chain.steps[1].tool:',
      'b.yaml:20:56 at agent.tools[2].chain.steps[1].on_success.next:',
    ]);
  });

  const mockAndCheck = validateCase('mock-and-check', ['m.scenario.yaml'], {
    'agent.yaml': AGENT_YAML,
    'm.scenario.yaml': [
      'name: m',
      'agent: agent.yaml',
      'inputs: {messages: [{role: user, content: go}]}',
      'model: {script: [{text: ok}]}',
      'mocks:',
      '  http:',
      '    - {url: "https://shop.test/a", headers: {"Bad H": v}, delay_ms: -1}',
      '    - {url: "https://shop.test/b", match: {json: {reason: {$regx: x}}, extra: 1}}',
      '    - {url: "https://shop.test/c", responses: [], status: 200}',
      'expect:',
      '  checks:',
      '    - tool_sequence: {calls: [{tool: lookup, arg: {}}, {tool: lookp}]}',
      '',
    ].join('\n'),
  });
  it("a mock's bad field hides no problem of its headers, matcher or responses; a check's bad call hides no other call's unknown tool", async () => {
    const result = await mockAndCheck();
    expect(result.exitCode, result.all).toBe(2);
    expect(places(result.all)).toEqual([
      'm.scenario.yaml:7:46 at mocks.http[0].headers["Bad',
      'm.scenario.yaml:7:69 at mocks.http[0].delay_ms:',
      'm.scenario.yaml:8:60 at mocks.http[1].match.json.reason.$regx:',
      'm.scenario.yaml:8:72 at mocks.http[1].match.extra:',
      'm.scenario.yaml:9:47 at mocks.http[2].responses:',
      'm.scenario.yaml:9:51 at mocks.http[2].status:',
      'm.scenario.yaml:12:46 at expect.checks[0].tool_sequence.calls[0].arg:',
      'm.scenario.yaml:12:63 at expect.checks[0].tool_sequence.calls[1].tool:',
    ]);
  });

  const closed = AGENT_YAML.replace('properties: {id: {type: string}}}', 'properties: {id: {type: string}}, additionalProperties: false}');
  const checkArgs = validateCase('check-args', ['a.scenario.yaml'], {
    'agent.yaml': closed,
    'a.scenario.yaml': [
      'name: a',
      'agent: agent.yaml',
      'inputs: {messages: [{role: user, content: go}]}',
      'model: {script: [{text: ok}]}',
      'expect:',
      '  checks:',
      '    - tool_called: {tool: lookup, args: {idd: 1, id: {$oneof: ["1"]}}}',
      '    - tool_not_called: {tool: lookup, args: {id: {$regx: x}, ix: 1}}',
      '    - tool_called: {tool: lookup, args: {a: 1, b: 2}}',
      '    - tool_sequence: {calls: [{tool: lookup, args: {id: {$oneof: []}, idd: 1}}, {tool: lookup, args: {id: {$range: [2, 1]}}}]}',
      '',
    ].join('\n'),
  });
  it("a check's bad matcher hides no unknown argument name of its args, and each unknown name is said", async () => {
    const result = await checkArgs();
    expect(result.exitCode, result.all).toBe(2);
    expect(places(result.all)).toEqual([
      'a.scenario.yaml:7:42 at expect.checks[0].tool_called.args.idd:',
      'a.scenario.yaml:7:55 at expect.checks[0].tool_called.args.id.$oneof:',
      'a.scenario.yaml:8:51 at expect.checks[1].tool_not_called.args.id.$regx:',
      'a.scenario.yaml:8:62 at expect.checks[1].tool_not_called.args.ix:',
      'a.scenario.yaml:9:42 at expect.checks[2].tool_called.args.a:',
      'a.scenario.yaml:9:48 at expect.checks[2].tool_called.args.b:',
      'a.scenario.yaml:10:58 at expect.checks[3].tool_sequence.calls[0].args.id.$oneof:',
      'a.scenario.yaml:10:71 at expect.checks[3].tool_sequence.calls[0].args.idd:',
      'a.scenario.yaml:10:116 at expect.checks[3].tool_sequence.calls[1].args.id.$range:',
    ]);
    expect(result.all).toContain(
      'at expect.checks[0].tool_called.args.idd: argument "idd" is not a parameter of lookup; expected one of: id; did you mean "id"?',
    );
  });

  const checkNames = validateCase('check-names', ['c.scenario.yaml'], {
    'agent.yaml': AGENT_YAML,
    'c.scenario.yaml': [
      'name: c',
      'agent: agent.yaml',
      'inputs: {messages: [{role: user, content: go}]}',
      'model: {script: [{text: ok}]}',
      'expect:',
      '  checks:',
      '    - approval: {tool: lookp, decision: aprove}',
      '    - tool_returned: {tool: lookp, result_mode: exact}',
      '    - tool_order: {before: [lookp, "/(a+)+/"], after: finsh, nested: 1}',
      '    - tool_called: {tool: lookp, min: -1}',
      '    - tool_not_called: {tool: lookp, nestd: true}',
      '    - state: {key: "context:x.y", equals: 1, exists: true}',
      '    - tool_called: {tol: lookp}',
      '',
    ].join('\n'),
  });
  it('a check with a format problem still has its well-formed tool names and state key checked against the build', async () => {
    const result = await checkNames();
    expect(result.exitCode, result.all).toBe(2);
    expect(places(result.all)).toEqual([
      'c.scenario.yaml:7:24 at expect.checks[0].approval.tool:',
      'c.scenario.yaml:7:41 at expect.checks[0].approval.decision:',
      'c.scenario.yaml:8:29 at expect.checks[1].tool_returned.tool:',
      'c.scenario.yaml:8:49 at expect.checks[1].tool_returned.result_mode:',
      'c.scenario.yaml:9:29 at expect.checks[2].tool_order.before[0]:',
      'c.scenario.yaml:9:36 at expect.checks[2].tool_order.before[1]:',
      'c.scenario.yaml:9:55 at expect.checks[2].tool_order.after:',
      'c.scenario.yaml:9:70 at expect.checks[2].tool_order.nested:',
      'c.scenario.yaml:10:27 at expect.checks[3].tool_called.tool:',
      'c.scenario.yaml:10:39 at expect.checks[3].tool_called.min:',
      'c.scenario.yaml:11:31 at expect.checks[4].tool_not_called.tool:',
      'c.scenario.yaml:11:38 at expect.checks[4].tool_not_called.nestd:',
      'c.scenario.yaml:12:20 at expect.checks[5].state.key:',
      'c.scenario.yaml:12:46 at expect.checks[5].state.exists:',
      'c.scenario.yaml:13:21 at expect.checks[6].tool_called.tol:',
    ]);
    expect(result.all).toContain('at expect.checks[0].approval.tool: an approval check names no tool of the agent: "lookp"; expected one of: lookup, finish');
    expect(result.all).toContain('at expect.checks[5].state.key: a state check reads the flow state, but the agent build has no flow');
    // The /regex/ with a problem is said as that problem only, not also as a name matching no tool.
    expect(result.all.match(/tool_order\.before\[1\]/g)).toHaveLength(1);
  });
});

describe('agentcheck validate counts what it printed', () => {
  it('its summary line gives every problem printed and every file they are in, for the files of all the cases above', async () => {
    const { root, result } = await validateEveryCase();
    const lines = problemLines(result.all, root);
    const files = new Set(lines.map((line) => line.slice(0, line.indexOf(':'))));
    // Every line is a problem of a case's file, or the summary: each case sees all its lines.
    expect(result.all.trim().split('\n').length).toBe(lines.length + 1);
    expect(lines.length).toBeGreaterThan(CASES.size);
    expect(result.all).toContain(`agentcheck validate: ${lines.length} problem(s) in ${files.size} file(s); valid: `);
  });
});
