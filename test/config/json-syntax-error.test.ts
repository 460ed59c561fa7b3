import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { jsonSyntaxProblem } from '../../src/config/json-syntax-error.js';
import { readCassette } from '../../src/runner/cassettes/cassette-file.js';
import { CASSETTES_FLAG } from '../../src/runner/cassettes/cassette-mode-setting.js';
import { readReportFile } from '../../src/runner/merge/read-report-file.js';
import { tempDir } from '../helpers/temp-dir.js';

const syntaxErrorOf = (text: string): unknown => {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error(`${text} parsed`);
};

describe('JSON syntax errors are located by line and column', () => {
  it('turns the character position into a line and column, and drops it from the reason', () => {
    const text = '{\n  "a": 1,\n  bad\n}\n';
    const problem = jsonSyntaxProblem(text, syntaxErrorOf(text));
    expect(problem).toMatchObject({ line: 3, column: 3 });
    expect(problem.reason).not.toMatch(/position/);
  });

  it('never quotes the text V8 quotes: the file may hold a key (a delta: or --agent naming a token file)', () => {
    for (const text of ['sk-live-abcdef\n', '{"a": glpat-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghij}']) {
      const { reason } = jsonSyntaxProblem(text, syntaxErrorOf(text));
      expect(reason).toMatch(/^Unexpected token '.'$/);
    }
  });

  it.each([
    ['a missing value in a list', '{\n "s": [,]\n}', 2, 8],
    ['a trailing comma', '{"a": 1,}', 1, 9],
    ['a missing colon', '{"a" 1}', 1, 6],
    ['a misspelt literal', '{"a": [1, {"b": 2}], "c": tru}', 1, 27],
    ['text after the value', '[1] 2', 1, 5],
    ['an unterminated list', '[1, 2', 1, 6],
    ['a control character in a string', '{"a": "x\u0001"}', 1, 9],
  ])('finds the position of %s also where V8 does not state it', (_what, text, line, column) => {
    expect(jsonSyntaxProblem(text, syntaxErrorOf(text))).toMatchObject({ line, column });
  });

  it('locates a broken report.json (--only-failed, compare, merge) and a broken cassette', async () => {
    const dir = tempDir({});
    const broken = '{\n  "schema": "agentcheck.report/1",\n  "scenarios": [,]\n}\n';
    writeFileSync(join(dir, 'report.json'), broken);
    writeFileSync(join(dir, 'cassette.json'), broken);
    expect(() => readReportFile('report.json', dir)).toThrow(/^report\.json:3:17: is not valid JSON \(.+\): expected a report\.json$/);
    const error = await readCassette(join(dir, 'cassette.json'), CASSETTES_FLAG).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/cassette\.json:3:17: a cassette must be JSON \(.+\); re-record it with --cassettes record$/);
  });
});
