import { describe, expect, it } from 'vitest';
import { checkFormat, documentLocator } from '../../src/config/assert-format.js';
import { ConfigError, ConfigErrors, throwConfigErrors } from '../../src/config/errors.js';
import { compileFormatSchema, userSchemaProblems } from '../../src/config/json-schema.js';
import { reduceSchemaErrors } from '../../src/config/reduce-schema-errors.js';
import { SourceDocument } from '../../src/config/source.js';
import { schemaValidityProblems, userSchemaProblem } from '../../src/config/user-schema-problem.js';
import { configErrorOf } from '../helpers/config-error.js';

const scenario = {
  type: 'object',
  required: ['name', 'inputs'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 3, pattern: '^[a-z]+$' },
    inputs: {
      type: 'object',
      required: ['messages'],
      additionalProperties: false,
      properties: { messages: { type: 'array' }, context: { type: 'object' } },
    },
    timeout_ms: { type: 'integer', minimum: 1 },
    tool_choice: { anyOf: [{ enum: ['none', 'auto'] }, { type: 'object', required: ['type'], properties: { type: { type: 'string' } } }] },
  },
};

/** The reduced problems of `value` against `schema`, as `path: expected` lines. */
function problems(schema: object, value: unknown): string[] {
  const validate = compileFormatSchema(schema);
  expect(validate(value)).toBe(false);
  return reduceSchemaErrors(validate.errors ?? [], value).map((problem) => `${problem.path.join('.')}: ${problem.expected}`);
}

describe('reduceSchemaErrors', () => {
  it('reports every independent problem of a value, one message each', () => {
    expect(problems(scenario, { name: 'ok-name', inputs: { messages: 'x' }, timeout_ms: -1, extra: 1 })).toEqual([
      'extra: unknown key "extra"; expected one of: name, inputs, timeout_ms, tool_choice',
      'name: expected a string matching ^[a-z]+$, got string "ok-name"',
      'inputs.messages: expected array, got string "x"',
      'timeout_ms: expected a number >= 1, got number -1',
    ]);
  });

  it('says the misspelt key instead of the missing one it explains', () => {
    expect(problems(scenario, { name: 'abc', inputs: { mesages: [] } })).toEqual([
      'inputs.mesages: unknown key "mesages" (did you mean "messages"?); expected one of: messages, context',
    ]);
  });

  it('keeps a missing key that no unknown key comes close to', () => {
    expect(problems(scenario, { name: 'abc', inputs: { zzz: [] } })).toEqual([
      'inputs: missing required key "messages"',
      'inputs.zzz: unknown key "zzz"; expected one of: messages, context',
    ]);
  });

  it('reports each missing key of one object', () => {
    expect(problems(scenario, {})).toEqual([': missing required key "name"', ': missing required key "inputs"']);
  });

  it('keeps the first of several problems of one value', () => {
    expect(problems(scenario, { name: 'A', inputs: { messages: [] } })).toEqual(['name: expected a string of at least 3 character(s)']);
  });

  it('of an anyOf, speaks for the branch the value fits, else the first', () => {
    expect(problems(scenario, { name: 'abc', inputs: { messages: [] }, tool_choice: {} })).toEqual(['tool_choice: missing required key "type"']);
    expect(problems(scenario, { name: 'abc', inputs: { messages: [] }, tool_choice: 5 })).toEqual([
      'tool_choice: expected one of "none" | "auto", got number 5',
    ]);
  });
});

describe('enum values: a near miss gets a suggestion', () => {
  it('suggests the allowed value a string misspells, and none for a value far from all', () => {
    expect(problems(scenario, { name: 'abc', inputs: { messages: [] }, tool_choice: 'autp' })).toEqual([
      'tool_choice: expected one of "none" | "auto", got string "autp" (did you mean "auto"?)',
    ]);
    expect(problems(scenario, { name: 'abc', inputs: { messages: [] }, tool_choice: 'required' })).toEqual([
      'tool_choice: expected one of "none" | "auto", got string "required"',
    ]);
  });

  it('leaves the errors a model gets for its tool arguments as they were (cassettes replay their text)', () => {
    const schema = { type: 'object', properties: { reason: { enum: ['damaged', 'late'] } } };
    expect(userSchemaProblems(schema, { reason: 'damagd' }, 'tool').map((problem) => problem.expected)).toEqual([
      'expected one of "damaged" | "late", got string "damagd"',
    ]);
  });
});

describe('userSchemaProblem (a JSON Schema the user wrote)', () => {
  it('says where in the schema the meta-schema fails and what it expected, with a suggestion', () => {
    expect(userSchemaProblem({ type: 'object', properties: { id: { type: 'strin' } } })).toBe(
      'at properties.id.type, expected one of "array" | "boolean" | "integer" | "null" | "number" | "object" | "string", got string "strin" (did you mean "string"?)',
    );
    expect(userSchemaProblem({ type: 'object', required: 'id' })).toBe('at required, expected array, got string "id"');
    expect(userSchemaProblem({ type: 'object', minProperties: -1 })).toBe('at minProperties, expected a number >= 0, got number -1');
  });

  it('says a bad schema inside items once, at its value, whether items is a schema or a list of them', () => {
    const at = (items: unknown) =>
      schemaValidityProblems({ type: 'object', properties: { d: { type: 'array', items } } }).map(({ path, expected }) => `${path.join('.')}: ${expected}`);
    const strng = 'expected one of "array" | "boolean" | "integer" | "null" | "number" | "object" | "string", got string "strng" (did you mean "string"?)';
    // No "items: expected array, got an object": an object is a valid items.
    expect(at({ type: 'strng' })).toEqual([`properties.d.items.type: ${strng}`]);
    expect(at([{ type: 'strng' }])).toEqual([`properties.d.items.0.type: ${strng}`]);
    expect(at(5)).toEqual(['properties.d.items: expected object or boolean, got number 5']);
    expect(at({ type: 'string' })).toEqual([]);
  });

  it('then reports what compiling finds, and null for a valid schema', () => {
    expect(userSchemaProblem({ type: 'string', pattern: '(' })).toMatch(/Invalid regular expression/);
    expect(userSchemaProblem({ type: 'object', properties: { id: { type: 'string' } } })).toBeNull();
    expect(userSchemaProblem([])).toBe('expected a JSON Schema object');
  });
});

describe('checkFormat', () => {
  const doc = SourceDocument.parse('s.yaml', 'name: abc\ninputs:\n  mesages: []\ntimeout_ms: 0\n');

  it('locates every problem and says which parts they leave valid or typed', () => {
    const format = checkFormat(scenario, doc.value, documentLocator(doc));
    expect(format.errors.map((error) => error.message)).toEqual([
      's.yaml:3:3 at inputs.mesages: unknown key "mesages" (did you mean "messages"?); expected one of: messages, context',
      's.yaml:4:13 at timeout_ms: expected a number >= 1, got number 0',
    ]);
    expect(format.valid(['name'])).toBe(true);
    expect(format.valid(['inputs'])).toBe(false);
    expect(format.typed(['inputs'])).toBe(true);
    expect(format.typed(['inputs', 'mesages'])).toBe(false);
    expect(format.valid([])).toBe(false);
  });

  it('says an absent key that an unknown key misspells is misspelt, neither valid nor typed', () => {
    const format = checkFormat(scenario, doc.value, documentLocator(doc));
    expect(format.misspelt(['inputs', 'messages'])).toBe(true);
    expect(format.valid(['inputs', 'messages'])).toBe(false);
    expect(format.typed(['inputs', 'messages'])).toBe(false);
    expect(format.misspelt(['inputs', 'context'])).toBe(false);
    expect(format.valid(['inputs', 'context'])).toBe(true);
    // A key that is there is not stood for by a near miss beside it.
    const both = checkFormat(scenario, { name: 'abc', inputs: { messages: [], mesages: [] } }, documentLocator(doc));
    expect(both.misspelt(['inputs', 'messages'])).toBe(false);
    expect(both.typed(['inputs', 'messages'])).toBe(true);
  });

  it('vouches for everything when the value matches', () => {
    const format = checkFormat(scenario, { name: 'abc', inputs: { messages: [] } }, documentLocator(doc));
    expect(format.errors).toEqual([]);
    expect(format.valid(['inputs', 'messages'])).toBe(true);
  });
});

describe('throwConfigErrors', () => {
  it('orders problems by file, then line and column, and drops repeats', () => {
    const at = (file: string, line: number, column: number) => new ConfigError({ file, line, column }, `problem at ${line}`);
    const error = configErrorOf(() => throwConfigErrors([at('a.yaml', 9, 1), at('b.yaml', 1, 1), at('a.yaml', 2, 5), at('a.yaml', 9, 1), at('a.yaml', 2, 3)]));
    expect(error).toBeInstanceOf(ConfigErrors);
    expect((error as ConfigErrors).errors.map((one) => one.where)).toEqual(['a.yaml:2:3', 'a.yaml:2:5', 'a.yaml:9:1', 'b.yaml:1:1']);
    expect(error.where).toBe('a.yaml:2:3');
  });

  it('throws the one problem itself when the others repeat it', () => {
    const one = new ConfigError({ file: 'a.yaml', line: 1 }, 'twice');
    const error = configErrorOf(() => throwConfigErrors([one, new ConfigError({ file: 'a.yaml', line: 1 }, 'twice')]));
    expect(error).not.toBeInstanceOf(ConfigErrors);
    expect(error.message).toBe('a.yaml:1: twice');
  });
});
