import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES } from '../../src/config/source.js';
import type { Report } from '../../src/runner/report/report.js';
import { AGENT_YAML, runCli } from '../e2e/cli.js';
import { runMain } from '../helpers/run-main.js';
import { linesAbout, shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

// Hostile input files through the built CLI: resource-exhaustion YAML, oversized files and
// catastrophic regular expressions are refused (exit 2, a clear message) or bounded.

/** A "billion laughs" document: 9 levels of 9 aliases each expand to 9^9 strings. */
function aliasBomb(prefix = ''): string {
  const names = 'abcdefghi';
  const lines = [`${prefix}a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]`];
  for (let i = 1; i < names.length; i++)
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

const SCENARIO = `name: ok
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{text: done}]}
`;

/** The cases of the catastrophic-regex test: file name, check, the message its problem must match. */
const REGEX_CASES: Array<[string, string, RegExp]> = [
  ['output', '{output: {matches: "(a+)+$"}}', /expect\.checks\[0\]\.output\.matches.*nested quantifier/],
  ['args', '{tool_called: {tool: lookup, args: {id: {$regex: "(x+x+)+y"}}}}', /nested quantifier/],
  ['alternation', '{output: {matches: "^(a|ab)*c$"}}', /alternation whose branches can match the same text/],
  ['lookaround', '{output: {matches: "(?=a)a*a*a*b"}}', /lookaround/],
  ['backreference', '{output: {matches: "(a*)b*\\\\1c"}}', /backreference/],
  ['tool-name', '{tool_called: {tool: "/(\\\\w+\\\\s?)+$/"}}', /nested quantifier/],
  ['spans', '{spans: {query: {filtering: {conditions: [{field: name, operator: matches, value: "(a|a)*$"}]}}, count: {min: 1}}}', /alternation/],
];

describe('hostile files', () => {
  // The suites refused at load (alias bombs, files over the size limit, catastrophic regexes) are
  // folders of one `run`, which reports every file's problems in one pass; each test reads the
  // lines about its own files.
  const refused = shared(async (dir) => {
    const regexes: Record<string, string> = { 'regex/agent.yaml': AGENT_YAML };
    for (const [name, check] of REGEX_CASES) regexes[`regex/${name}.scenario.yaml`] = `${SCENARIO}expect:\n  checks:\n    - ${check}\n`;
    const padding = `# ${'x'.repeat(MAX_CONFIG_BYTES)}\n`;
    const cwd = dir({
      'bombs/bomb.scenario.yaml': aliasBomb(),
      'bombs/bomb-agent.yaml': `id: bomb\nagent: {name: bomb}\n${aliasBomb('x')}`,
      'bombs/uses-bomb-agent.scenario.yaml': SCENARIO.replace('agent.yaml', 'bomb-agent.yaml'),
      'bombs/skilled.yaml': 'id: skilled\nagent:\n  name: skilled\n  skills: [{ref: ./skill}]\n',
      'bombs/skill/SKILL.md': `---\nname: bomb\ndescription: d\n${aliasBomb('z')}---\nbody\n`,
      'bombs/uses-skill.scenario.yaml': SCENARIO.replace('agent.yaml', 'skilled.yaml'),
      'big/big-agent.yaml': AGENT_YAML + padding,
      'big/ok.scenario.yaml': SCENARIO.replace('agent.yaml', 'big-agent.yaml'),
      'big/big.scenario.yaml': SCENARIO + padding,
      ...regexes,
    });
    return { cwd, run: await runCli(['run', 'bombs', 'big', 'regex', '--out', 'out', '--reporter', 'json'], cwd) };
  });

  it('refuses YAML alias bombs wherever a file is read, with exit 2 and a clear message', async () => {
    // A config is read before anything else, so its bomb stops the command alone; the others (a
    // scenario, an agent build, a skill's SKILL.md, which is checked when the build loads) are
    // each reported in one pass, by run as by validate. The config's refusal goes through the
    // CLI's entry in-process (runMain): the built CLI refuses run's bombs in the suite above.
    const { cwd, run } = await refused();
    const configBomb = tempDir({ 'agentcheck.config.yaml': aliasBomb(), 'agent.yaml': AGENT_YAML, 'ok.scenario.yaml': SCENARIO });
    const runs: Array<[string, { exitCode?: number; all?: string; stderr: string }, string[]]> = [
      ['run', run, ['bomb.scenario.yaml', 'bomb-agent.yaml', 'SKILL.md']],
      ['validate', await runCli(['validate', '.'], join(cwd, 'bombs')), ['bomb.scenario.yaml', 'bomb-agent.yaml', 'SKILL.md']],
      ['config', await runMain(['run', '--out', 'out'], configBomb), ['agentcheck.config.yaml']],
    ];
    for (const [name, result, files] of runs) {
      expect(result.exitCode, `${name}: ${result.all}`).toBe(2);
      expect(result.all, name).not.toMatch(/unexpected error/);
      for (const file of files) expect(linesAbout(result.stderr, file), `${name} ${file}`).toMatch(/YAML aliases are limited to 1000 expansions/);
    }
  });

  it('refuses files over the config size limit before parsing them', async () => {
    const { run } = await refused();
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': `- {text: done}\n# ${'x'.repeat(MAX_CONFIG_BYTES)}\n` });
    const testRun = await runCli(['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml'], dir);
    const limit = `config files are limited to ${MAX_CONFIG_BYTES} bytes`;
    expect(run.exitCode, run.all).toBe(2);
    expect(linesAbout(run.stderr, 'big.scenario.yaml'), 'big scenario').toContain(limit);
    expect(linesAbout(run.stderr, 'big-agent.yaml'), 'big agent build').toContain(limit);
    expect(testRun.exitCode, testRun.all).toBe(2);
    expect(testRun.stderr).toContain('script.yaml');
    expect(testRun.stderr).toContain(limit);
  });

  it('rejects catastrophic regular expressions in checks when the suite loads', async () => {
    const { run } = await refused();
    expect(run.exitCode, run.all).toBe(2);
    for (const [name, , message] of REGEX_CASES) {
      const lines = linesAbout(run.stderr, `${name}.scenario.yaml`);
      expect(lines, name).toMatch(message);
      expect(lines, name).toMatch(new RegExp(`${name}\\.scenario\\.yaml:\\d+:\\d+`));
    }
  });

  describe('patterns on long text, in one suite run', () => {
    // Backtracking in either scenario would take hours: the test's timeout, not a clock, catches it.
    const suite = shared(async (dir) => {
      const cwd = dir({
        'agent.yaml': AGENT_YAML,
        'slow.scenario.yaml': `name: polynomial
agent: agent.yaml
timeout_ms: 10000
inputs: {messages: [{role: user, content: go}]}
model: {script: [{text: "${'a'.repeat(9000)}"}]}
expect:
  checks:
    - output: {matches: "a*a*a*a*b"}
    - output: {matches: "^a*a*a*a*$"}
`,
        'grepper.yaml': `id: grepper
agent:
  name: grepper
  llm: {provider: scripted, model: s}
  tools:
    - {name: grep, description: g, builtin: grep}
    - {name: find_files, description: f, builtin: find_files}
`,
        'ws/.keep': '',
        'hostile.scenario.yaml': `name: hostile patterns
agent: grepper.yaml
workspace: ws
timeout_ms: 10000
inputs: {messages: [{role: user, content: go}]}
model:
  script:
    - tool_calls:
        - {name: grep, args: {pattern: "(a+)+$"}}
        - {name: find_files, args: {pattern: "(a|a)*$"}}
        - {name: grep, args: {pattern: "(?<=a)a*a*a*c"}}
        - {name: grep, args: {pattern: "a*a*a*a*c"}}
        - {name: find_files, args: {pattern: "^a*a*a*a*c"}}
    - {text: done}
expect:
  checks:
    - tool_called: {tool: grep, min: 3}
`,
      });
      // One line of 200,000 "a"s (and a file named like it) for the patterns that are allowed to run.
      writeFileSync(join(cwd, 'ws', 'long.txt'), `${'a'.repeat(200_000)}\n`);
      writeFileSync(join(cwd, 'ws', `${'a'.repeat(200)}.txt`), 'x\n');
      const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json'], cwd);
      const report = JSON.parse(readFileSync(join(cwd, 'out', 'report.json'), 'utf8')) as Report;
      const row = (name: string) => report.scenarios.find((scenario) => scenario.name === name);
      return { result, row, spans: readFileSync(join(cwd, 'out', 'spans.jsonl'), 'utf8') };
    });

    it('bounds a polynomial regex on a long output instead of hanging the run', async () => {
      // Without a bound, /a*a*a*a*b/ on 9,000 "a"s backtracks for days; it must finish at once.
      const { result, row } = await suite();
      expect(result.exitCode, result.all).toBe(1);
      const polynomial = row('polynomial');
      expect(polynomial?.status, result.all).toBe('fail');
      expect(polynomial?.checks.map((check) => check.status)).toEqual(['fail', 'pass']);
    });

    it('applies the same rules to patterns the model sends to grep and find_files', async () => {
      const { result, row, spans } = await suite();
      const hostile = row('hostile patterns');
      expect(hostile?.error, result.all).toBeNull();
      expect(hostile?.status, result.all).toBe('pass');
      expect(hostile?.test_run?.tools).toEqual([
        { name: 'grep', called: 3, returned: 1, errors: 2 },
        { name: 'find_files', called: 2, returned: 1, errors: 1 },
      ]);
      // The polynomial scenario calls no tool: these spans are the hostile scenario's.
      expect(spans).toContain('invalid_pattern');
      expect(spans).toContain('nested quantifier');
      expect(spans).toContain('lookaround');
    });
  });
});
