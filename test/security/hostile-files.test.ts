import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES } from '../../src/config/source.js';
import type { Report } from '../../src/runner/report/report.js';
import { AGENT_YAML, runCli } from '../e2e/cli.js';
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

describe('hostile files', () => {
  it('refuses YAML alias bombs wherever a file is read, with exit 2 and a clear message', async () => {
    const dir = tempDir({
      'scenario-bomb/agent.yaml': AGENT_YAML,
      'scenario-bomb/bomb.scenario.yaml': aliasBomb(),
      'agent-bomb/agent.yaml': `id: bomb\nagent: {name: bomb}\n${aliasBomb('x')}`,
      'agent-bomb/ok.scenario.yaml': SCENARIO,
      'config-bomb/agentcheck.config.yaml': aliasBomb(),
      'config-bomb/agent.yaml': AGENT_YAML,
      'config-bomb/ok.scenario.yaml': SCENARIO,
      'skill-bomb/agent.yaml': 'id: skilled\nagent:\n  name: skilled\n  skills: [{ref: ./skill}]\n',
      'skill-bomb/skill/SKILL.md': `---\nname: bomb\ndescription: d\n${aliasBomb('z')}---\nbody\n`,
      'skill-bomb/ok.scenario.yaml': SCENARIO,
    });
    const runs = await Promise.all([
      runCli(['run', '.', '--out', 'out'], join(dir, 'scenario-bomb')),
      runCli(['run', '.', '--out', 'out'], join(dir, 'agent-bomb')),
      runCli(['run', '--out', 'out'], join(dir, 'config-bomb')),
      runCli(['validate', '.'], join(dir, 'skill-bomb')),
      runCli(['validate', '.'], join(dir, 'scenario-bomb')),
      runCli(['run', '.', '--out', 'out', '--reporter', 'json'], join(dir, 'skill-bomb')),
    ]);
    // A skill ref is checked when the agent build loads, so a bomb in a SKILL.md stops `run` too.
    const files = ['bomb.scenario.yaml', 'agent.yaml', 'agentcheck.config.yaml', 'SKILL.md', 'bomb.scenario.yaml', 'SKILL.md'];
    runs.forEach((result, i) => {
      expect(result.exitCode, result.all).toBe(2);
      expect(result.all).toContain(files[i]);
      expect(result.all).toMatch(/YAML aliases are limited to 1000 expansions/);
      expect(result.all).not.toMatch(/unexpected error/);
    });
  });

  it('refuses files over the config size limit before parsing them', async () => {
    const padding = `# ${'x'.repeat(MAX_CONFIG_BYTES)}\n`;
    const dir = tempDir({
      'big-scenario/agent.yaml': AGENT_YAML,
      'big-scenario/big.scenario.yaml': SCENARIO + padding,
      'big-agent/agent.yaml': AGENT_YAML + padding,
      'big-agent/ok.scenario.yaml': SCENARIO,
      'big-script/agent.yaml': AGENT_YAML,
      'big-script/script.yaml': `- {text: done}\n${padding}`,
    });
    const runs = await Promise.all([
      runCli(['run', '.', '--out', 'out'], join(dir, 'big-scenario')),
      runCli(['run', '.', '--out', 'out'], join(dir, 'big-agent')),
      runCli(['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml'], join(dir, 'big-script')),
    ]);
    const files = ['big.scenario.yaml', 'agent.yaml', 'script.yaml'];
    runs.forEach((result, i) => {
      expect(result.exitCode, result.all).toBe(2);
      expect(result.stderr).toContain(files[i]);
      expect(result.stderr).toContain(`config files are limited to ${MAX_CONFIG_BYTES} bytes`);
    });
  });

  it('rejects catastrophic regular expressions in checks when the suite loads', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['output', '{output: {matches: "(a+)+$"}}', /expect\.checks\[0\]\.output\.matches.*nested quantifier/],
      ['args', '{tool_called: {tool: lookup, args: {id: {$regex: "(x+x+)+y"}}}}', /nested quantifier/],
      ['alternation', '{output: {matches: "^(a|ab)*c$"}}', /alternation whose branches can match the same text/],
      ['lookaround', '{output: {matches: "(?=a)a*a*a*b"}}', /lookaround/],
      ['backreference', '{output: {matches: "(a*)b*\\\\1c"}}', /backreference/],
      ['tool-name', '{tool_called: {tool: "/(\\\\w+\\\\s?)+$/"}}', /nested quantifier/],
      ['spans', '{spans: {query: {filtering: {conditions: [{field: name, operator: matches, value: "(a|a)*$"}]}}, count: {min: 1}}}', /alternation/],
    ];
    const files: Record<string, string> = {};
    for (const [name, check] of cases) {
      files[`${name}/agent.yaml`] = AGENT_YAML;
      files[`${name}/x.scenario.yaml`] = `${SCENARIO}expect:\n  checks:\n    - ${check}\n`;
    }
    const dir = tempDir(files);
    const runs = await Promise.all(cases.map(([name]) => runCli(['run', '.', '--out', 'out'], join(dir, name))));
    runs.forEach((result, i) => {
      expect(result.exitCode, `${cases[i][0]}: ${result.all}`).toBe(2);
      expect(result.stderr, cases[i][0]).toMatch(cases[i][2]);
      expect(result.stderr, cases[i][0]).toMatch(/x\.scenario\.yaml:\d+:\d+/);
    });
  });

  it('bounds a polynomial regex on a long output instead of hanging the run', async () => {
    // Without a bound, /a*a*a*a*b/ on 9,000 "a"s backtracks for days; it must finish at once.
    const dir = tempDir({
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
    });
    // Backtracking here would take hours: the test's timeout, not a clock, catches it.
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const [row] = (JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report).scenarios;
    expect(row.status).toBe('fail');
    expect(row.checks.map((check) => check.status)).toEqual(['fail', 'pass']);
  });

  it('applies the same rules to patterns the model sends to grep and find_files', async () => {
    const dir = tempDir({
      'agent.yaml': `id: grepper
agent:
  name: grepper
  llm: {provider: scripted, model: s}
  tools:
    - {name: grep, description: g, builtin: grep}
    - {name: find_files, description: f, builtin: find_files}
`,
      'ws/.keep': '',
      'hostile.scenario.yaml': `name: hostile patterns
agent: agent.yaml
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
    writeFileSync(join(dir, 'ws', 'long.txt'), `${'a'.repeat(200_000)}\n`);
    writeFileSync(join(dir, 'ws', `${'a'.repeat(200)}.txt`), 'x\n');
    // Backtracking here would take hours: the test's timeout, not a clock, catches it.
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json'], dir);
    const [row] = (JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report).scenarios;
    expect(row.error, result.all).toBeNull();
    expect(row.test_run?.tools).toEqual([
      { name: 'grep', called: 3, returned: 1, errors: 2 },
      { name: 'find_files', called: 2, returned: 1, errors: 1 },
    ]);
    const spans = readFileSync(join(dir, 'out', 'spans.jsonl'), 'utf8');
    expect(spans).toContain('invalid_pattern');
    expect(spans).toContain('nested quantifier');
    expect(spans).toContain('lookaround');
  });
});
