import { describe, expect, it } from 'vitest';
import { userSchemaProblem } from '../../src/config/user-schema-problem.js';
import { revisionFromValue } from '../../src/engine/revision/load-build.js';
import { memoryLocator } from '../../src/config/assert-format.js';
import { userSchemaProblems } from '../../src/config/json-schema.js';
import { validateExpectedArgs } from '../../src/verdicts/args/validate-expected.js';
import { invalid } from '../verdicts/check-helpers.js';

describe('unknown JSON Schema keywords in a schema someone wrote', () => {
  it('are refused where they are, with a did-you-mean, in nested schemas too', () => {
    expect(userSchemaProblem({ type: 'object', properties: { id: { type: 'string' } }, requried: ['id'] })).toBe(
      'at requried, unknown JSON Schema keyword "requried" (did you mean "required"?): validators ignore it, so its constraint would not hold (vendor keywords start with "x-")',
    );
    expect(userSchemaProblem({ type: 'object', properties: { n: { type: 'integer', minimun: 1 } } })).toMatch(
      /^at properties\.n\.minimun, unknown JSON Schema keyword "minimun" \(did you mean "minimum"\?\)/,
    );
    expect(userSchemaProblem({ type: 'array', items: [{ typ: 'string' }] })).toMatch(
      /^at items\[0\]\.typ, unknown JSON Schema keyword "typ" \(did you mean "type"\?\)/,
    );
    expect(userSchemaProblem({ anyOf: [{ type: 'string' }, { type: 'number', maximun: 3 }] })).toMatch(/^at anyOf\[1\]\.maximun/);
    expect(userSchemaProblem({ type: 'object', propertes: {} })).toMatch(/did you mean "properties"\?/);
  });

  it('lets known annotations, OpenAPI keywords, vendor x- keywords and data values through', () => {
    const schema = {
      type: 'object',
      title: 'T',
      properties: { a: { type: 'string', nullable: true, example: 'x', 'x-order': 1, default: { requried: 1 } }, requried: { type: 'string' } },
      enum: [{ typ: 1 }],
      $defs: { d: { type: 'string' } },
      dependencies: { a: ['requried'] },
    };
    expect(userSchemaProblem(schema)).toBeNull();
    // A schema an MCP server gives may carry keywords of its own.
    expect(userSchemaProblem({ type: 'object', serverHint: 1 }, 'tool', { unknownKeywords: 'allow' })).toBeNull();
  });

  it('refuse a build whose tool parameters misspell required (a call without the argument would pass)', () => {
    const build = {
      id: 'a',
      agent: {
        name: 'A',
        tools: [{ name: 'refund', description: 'R.', parameters: { type: 'object', properties: { id: { type: 'string' } }, requried: ['id'] }, returns: 1 }],
      },
    };
    expect(() => revisionFromValue(build)).toThrow(/agent\.tools\[0\]\.parameters.*unknown JSON Schema keyword "requried" \(did you mean "required"\?\)/);
  });

  it.each([
    ['dependentRequired', { type: 'object', dependentRequired: { a: ['b'] } }, { a: 1 }, '2019-09', 'write "dependencies" with a list of property names'],
    ['dependentSchemas', { type: 'object', dependentSchemas: { a: { required: ['b'] } } }, { a: 1 }, '2019-09', 'write "dependencies" with a schema'],
    [
      'minContains',
      { type: 'array', contains: { type: 'string' }, minContains: 2 },
      ['x'],
      '2019-09',
      'draft-07 has only "contains" (at least one item matches)',
    ],
    [
      'maxContains',
      { type: 'array', contains: { type: 'string' }, maxContains: 1 },
      ['x', 'y'],
      '2019-09',
      'draft-07 has only "contains" (at least one item matches)',
    ],
    [
      'unevaluatedProperties',
      { type: 'object', properties: { a: {} }, unevaluatedProperties: false },
      { a: 1, b: 2 },
      '2019-09',
      'write "additionalProperties" beside the "properties" it applies to',
    ],
    ['unevaluatedItems', { type: 'array', items: [{}], unevaluatedItems: false }, [1, 2], '2019-09', 'write "additionalItems" beside a list of "items"'],
    ['$recursiveRef', { $recursiveRef: '#' }, 1, '2019-09', 'write "$ref"'],
    ['$dynamicRef', { $dynamicRef: '#' }, 1, '2020-12', 'write "$ref"'],
  ])('refuse %s, which the draft-07 validator ignores (%j would pass %j), saying what to write instead', (keyword, schema, _value, draft, instead) => {
    expect(userSchemaProblem({ type: 'object', properties: { p: schema } })).toBe(
      `at properties.p.${keyword}, JSON Schema keyword "${keyword}" is from draft ${draft}; agentcheck reads schemas as draft-07, which ignores it, so its constraint would not hold: ${instead}`,
    );
  });

  it('refuse draft 2020-12 prefixItems, which the draft-07 validator ignores, saying what to write instead', () => {
    const pair = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] };
    const instead = 'write "items" as a list of schemas, with "additionalItems" for the items after them';
    expect(userSchemaProblem({ type: 'object', properties: { p: pair } })).toBe(
      `at properties.p.prefixItems, JSON Schema keyword "prefixItems" is from draft 2020-12; agentcheck reads schemas as draft-07, which ignores it, so its constraint would not hold: ${instead}`,
    );
    // In a build's tool parameters, an output check's schema and a $schema matcher alike.
    const build = {
      id: 'a',
      agent: { name: 'A', tools: [{ name: 't', description: 'T.', parameters: { type: 'object', properties: { p: pair } }, returns: 1 }] },
    };
    expect(() => revisionFromValue(build)).toThrow(
      /agent\.tools\[0\]\.parameters\.properties\.p\.prefixItems: JSON Schema keyword "prefixItems" is from draft 2020-12/,
    );
    expect(invalid('output', { schema: pair })).toContain(`at expect.checks[0].output.schema.prefixItems: JSON Schema keyword "prefixItems"`);
    expect(() => validateExpectedArgs({ p: { $schema: pair } }, [], memoryLocator('s.yaml', ['args']))).toThrow(
      /at args\.p\.\$schema: \$schema is not a valid JSON Schema: at prefixItems, JSON Schema keyword "prefixItems" is from draft 2020-12/,
    );
    // What it says to write instead is accepted and holds.
    const written = { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false };
    expect(userSchemaProblem(written)).toBeNull();
    expect(userSchemaProblems(written, ['a', 1])).toEqual([]);
    expect(userSchemaProblems(written, ['a', 'b'])).not.toEqual([]);
    // A server's schema may be draft 2020-12: the server checks its own arguments.
    expect(userSchemaProblem(pair, 'tool', { unknownKeywords: 'allow' })).toBeNull();
  });
});
