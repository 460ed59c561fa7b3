import { describe, expect, it } from 'vitest';
import { capEchoed } from '../../src/config/cap-text.js';
import { regexProblem } from '../../src/config/safe-regex.js';
import { SourceDocument } from '../../src/config/source.js';
import { runCli } from '../e2e/cli.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';

// Errors say where and what, but never echo a huge value whole, and YAML alias errors are located.

describe('errors about hostile values', () => {
  it('an unresolved alias names the line and column of the alias, with no unrelated suffix', () => {
    let error: unknown;
    try {
      SourceDocument.parse('agent.yaml', 'id: x\nagent:\n  name: A\n  instructions: *nope\n');
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'CONFIG_SYNTAX', line: 4, column: 17 });
    expect((error as Error).message).toBe('agent.yaml:4:17: is not valid YAML/JSON: alias *nope has no anchor &nope before it');
  });

  it('an alias bomb still says what the limit is, at the alias that goes past it', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 8; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    expect(() => SourceDocument.parse('x.yaml', bomb.join('\n'))).toThrow(
      /^x\.yaml:4:29: is not valid YAML\/JSON: YAML aliases are limited to 1000 expansions \(alias \*c goes past the limit\)$/,
    );
  });

  it('says the type of a value under a secret-named key, never the value: a token written unquoted', async () => {
    const dir = tempDir({
      'agent.mjs': 'console.log("x")\n',
      'agent.yaml': 'id: cfg\nexternal:\n  command: [node, ./agent.mjs]\n  env: {SERVICE_TOKEN: 98765432101234, PLAIN: 5}\n',
      'big.yaml': 'id: cfg\nexternal:\n  command: [node, ./agent.mjs]\n  env: {API_KEY: 12345678987654321}\n',
      'big.json': '{"id": "cfg", "external": {"command": ["node", "./agent.mjs"], "env": {"DB_PASSWORD": 12345678987654321}}}\n',
    });
    const result = await runCli(['validate', 'agent.yaml', 'big.yaml', 'big.json'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("at external.env.SERVICE_TOKEN: expected string, got number (not shown: its key's name says it may be a credential)");
    expect(result.stderr).toContain('at external.env.PLAIN: expected string, got number 5');
    expect(result.stderr).toContain("at external.env.API_KEY: the number (not shown: its key's name says it may be a credential) is beyond 2^53");
    expect(result.stderr).toContain("at external.env.DB_PASSWORD: the number (not shown: its key's name says it may be a credential) is beyond 2^53");
    for (const secret of ['98765432101234', '12345678987654321']) expect(result.stderr).not.toContain(secret);
  });

  it('caps an echoed value at 200 characters and says how much was cut', () => {
    expect(capEchoed('x'.repeat(250))).toBe(`${'x'.repeat(200)}... (50 more characters)`);
    expect(capEchoed('short')).toBe('short');
    const problem = regexProblem(`${'('.repeat(100_000)}`) ?? '';
    expect(problem).toContain('... (99800 more characters)');
    expect(problem.length).toBeLessThan(400);
  });

  it('agentcheck validate: a 1 MB unknown key is echoed capped, once', async () => {
    const key = 'k'.repeat(1_000_000);
    const dir = tempDir({ 'agent.yaml': `id: x\nagent:\n  name: A\n  ${key}: 1\n` });
    // The CLI's entry in-process (runMain): the built CLI refuses the files of the test above.
    const result = await runMain(['validate', 'agent.yaml'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('... (999800 more characters)');
    expect(result.stderr.length).toBeLessThan(3_000);
  });
});
