import { describe, expect, it } from 'vitest';
import { userSchemaProblems } from '../../src/config/json-schema.js';

describe('schema problems in words', () => {
  it("says which items repeat, and how long a string may be, instead of Ajv's raw text", () => {
    const unique = userSchemaProblems({ type: 'array', uniqueItems: true }, ['output', 'tools', 'output']);
    expect(unique.map((problem) => problem.expected)).toEqual(['expected no item twice; items 0 and 2 are the same (string "output")']);
    const long = userSchemaProblems({ type: 'string', maxLength: 3 }, 'abcd');
    expect(long.map((problem) => problem.expected)).toEqual(['expected a string of at most 3 character(s)']);
  });

  it('quotes a user pattern named like an Object.prototype member as the pattern, not as a function', () => {
    for (const pattern of ['toString', 'constructor']) {
      const problems = userSchemaProblems({ type: 'string', pattern }, 'x');
      expect(problems.map((problem) => problem.expected)).toEqual([`expected a string matching ${pattern}, got string "x"`]);
    }
  });

  it("reads only the value's own properties: an absent constructor is absent, a required toString missing", () => {
    const schema = JSON.parse(
      '{"type": "object", "properties": {"constructor": {"type": "string"}, "toString": {"type": "string"}}, "required": ["toString"]}',
    ) as object;
    for (const kind of ['plain', 'tool', 'params'] as const) {
      expect(userSchemaProblems(schema, { toString: 'x' }, kind)).toEqual([]);
      expect(userSchemaProblems(schema, {}, kind).map((problem) => problem.expected)).toEqual(['missing required key "toString"']);
    }
  });
});
