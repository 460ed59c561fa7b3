import { describe, expect, it } from 'vitest';
import { memoryLocator } from '../../src/config/assert-format.js';
import { ConfigError } from '../../src/config/errors.js';
import { validateQuery } from '../../src/spans/query.js';
import { spans } from '../../src/verdicts/checks/spans.js';

const problem = (query: unknown): string | null => {
  try {
    validateQuery(query, memoryLocator('scenario.yaml', ['query']));
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
};
const condition = (field: string, operator: string, value?: unknown) => ({ filtering: { field, operator, ...(value === undefined ? {} : { value }) } });

describe('validateQuery: values of status and kind', () => {
  it('accepts every value those fields hold, with is, is_not, eq, neq, in and not_in', () => {
    for (const value of ['unset', 'ok', 'error']) for (const op of ['is', 'is_not', 'eq', 'neq']) expect(problem(condition('status', op, value))).toBeNull();
    for (const value of ['internal', 'server', 'client', 'producer', 'consumer']) expect(problem(condition('kind', 'is', value))).toBeNull();
    expect(problem(condition('status', 'in', ['ok', 'error']))).toBeNull();
    expect(problem(condition('kind', 'not_in', ['client']))).toBeNull();
    expect(problem(condition('status', 'exists'))).toBeNull();
    expect(problem(condition('status', 'startswith', 'err'))).toBeNull();
  });

  it('refuses a text operator none of the listed words satisfies, and an empty in / not_in list on any field', () => {
    expect(problem(condition('status', 'startswith', 'x'))).toBe(
      'scenario.yaml at query.filtering.value: field "status" is one of unset, ok, error, and none of them starts with "x", so this condition could never match',
    );
    expect(problem(condition('kind', 'contains', 'zz'))).toContain(
      'field "kind" is one of internal, server, client, producer, consumer, and none of them contains "zz"',
    );
    expect(problem(condition('kind', 'endswith', 'er'))).toBeNull();
    expect(problem(condition('name', 'in', []))).toBe(
      'scenario.yaml at query.filtering.value: operator "in" needs at least one value: with none it would never match',
    );
    expect(problem({ filtering: { field: 'attributes', key: 'agentcheck.tool.kind', operator: 'not_in', value: [] } })).toContain(
      'operator "not_in" needs at least one value: with none it would hold for every span',
    );
  });

  it('refuses a typo in a status value, located, with the allowed values and a hint', () => {
    expect(problem(condition('status', 'is', 'ERROR'))).toBe(
      'scenario.yaml at query.filtering.value: field "status" is one of unset, ok, error, got "ERROR"; did you mean "error"?',
    );
    expect(problem(condition('status', 'eq', 'errror'))).toContain('got "errror"; did you mean "error"?');
    expect(problem(condition('status', 'neq', 'failed'))).toContain('field "status" is one of unset, ok, error, got "failed"');
    expect(problem(condition('status', 'is_not', null))).toContain('got null');
    expect(
      problem({
        filtering: {
          conditions: [
            { field: 'name', operator: 'is', value: 'x' },
            { field: 'status', operator: 'in', value: ['ok', 'Error'] },
          ],
        },
      }),
    ).toContain('at query.filtering.conditions[1].value[1]: field "status" is one of unset, ok, error, got "Error"');
  });

  it('refuses a kind no span has, and a list with is', () => {
    expect(problem(condition('kind', 'is', 'tool'))).toContain(
      'at query.filtering.value: field "kind" is one of internal, server, client, producer, consumer, got "tool"',
    );
    expect(problem(condition('kind', 'not_in', ['CLIENT']))).toContain('at query.filtering.value[0]: field "kind" is one of');
    expect(problem(condition('status', 'is', ['ok', 'error']))).toContain('use "in" for several');
  });

  it('makes a spans check with count {max: 0} and a misspelled status an error at load, not a vacuous pass', () => {
    const locate = memoryLocator('a.scenario.yaml', ['expect', 'checks', 0, 'spans']);
    expect(() => spans.validate({ query: condition('status', 'is', 'errror'), count: { max: 0 } }, locate)).toThrow(
      /a\.scenario\.yaml at expect\.checks\[0\]\.spans\.query\.filtering\.value: field "status" is one of unset, ok, error, got "errror"/,
    );
  });
});

describe('validateQuery: ordering operators', () => {
  it('apply to duration_ms and attributes only', () => {
    expect(problem(condition('duration_ms', 'gt', 5))).toBeNull();
    expect(problem({ filtering: { field: 'attributes', key: 'agentcheck.turn', operator: 'lte', value: 2 } })).toBeNull();
    expect(problem({ filtering: { field: 'attributes', key: 'gen_ai.response.model', operator: 'gte', value: 'gpt-4' } })).toBeNull();
    for (const field of ['name', 'trace_id', 'span_id', 'parent_id', 'status', 'kind']) {
      for (const op of ['gt', 'gte', 'lt', 'lte']) {
        expect(problem(condition(field, op, 'm')), `${field} ${op}`).toBe(
          `scenario.yaml at query.filtering.operator: operator "${op}" applies only to duration_ms and attributes (values with an order), not field "${field}"; use is, in, startswith or matches`,
        );
      }
    }
  });
});

describe('validateQuery: an object of neither form', () => {
  it('names both forms and the keys it got, so a condition missing its field is recognisable', () => {
    expect(problem({ filtering: { name: 'lookup_order', value: 1 } })).toBe(
      'scenario.yaml at query.filtering: expected a condition {field, operator, value} or a filtering {operator, conditions}; got keys name, value',
    );
    expect(problem({ filtering: {} })).toContain('got an empty object');
  });
});

describe('validateQuery and the spans check: every problem in one pass', () => {
  it('reports each bad window setting, logical operator, condition list and count together', () => {
    const located = (params: unknown): string[] => {
      try {
        spans.validate(params, memoryLocator('scenario.yaml', ['expect', 'checks', 0, 'spans']));
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).message.split('\n');
      }
    };
    expect(located({ query: { windowing: { limit: 1.5, order: 'up' } }, count: { min: 2, max: 1 } })).toEqual([
      'scenario.yaml at expect.checks[0].spans.query.windowing.limit: expected a whole number >= 0, got 1.5',
      'scenario.yaml at expect.checks[0].spans.query.windowing.order: expected order asc | desc, got "up"',
      'scenario.yaml at expect.checks[0].spans.count.max: max (1) is below min (2)',
    ]);
    const twoConditions = {
      filtering: {
        operator: 'xor',
        conditions: [
          { field: 'nme', operator: 'is', value: 'x' },
          { field: 'name', operator: 'iz', value: 'y' },
        ],
      },
    };
    const messages = located({ query: twoConditions });
    expect(messages).toHaveLength(3);
    expect(messages[0]).toContain('query.filtering.operator: expected operator and | or | not, got "xor"');
    expect(messages[1]).toContain('query.filtering.conditions[0].field: unknown field "nme"');
    expect(messages[2]).toContain('query.filtering.conditions[1].operator: unknown operator "iz"');
  });
});
