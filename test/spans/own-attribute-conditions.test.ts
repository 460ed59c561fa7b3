import { describe, expect, it } from 'vitest';
import { memoryLocator } from '../../src/config/assert-format.js';
import type { ConfigError } from '../../src/config/errors.js';
import { ownConditionProblems } from '../../src/spans/own-attribute-conditions.js';
import { presentAttributes, validateOwnAttributeKeys } from '../../src/spans/own-attribute-keys.js';
import { OWN_ATTRIBUTE_VALUES } from '../../src/spans/own-attribute-values.js';
import { querySpans } from '../../src/spans/query.js';
import type { QueryCondition, QueryOperator } from '../../src/spans/query-types.js';
import type { AttributeValue, SpanRecord } from '../../src/spans/span-record.js';
import { validateChecks } from '../../src/verdicts/run-checks.js';

const locate = memoryLocator('s.yaml', ['expect', 'checks']);

/** What `validate` says of a spans check with this one condition: `path: problem`, or `accepted`. */
function problem(key: string, operator: string, value: unknown): string {
  const check = { spans: { query: { filtering: { field: 'attributes', key, operator, value } }, count: { equals: 0 } } };
  try {
    validateChecks([check], locate);
  } catch (error) {
    return `${(error as ConfigError).path}: ${(error as ConfigError).expected}`;
  }
  return 'accepted';
}

const AT = 'expect.checks[0].spans.query.filtering.value';

function span(key: string, value: AttributeValue, index: number): SpanRecord {
  return {
    trace_id: 't',
    span_id: `s${index}`,
    parent_id: null,
    name: 'execute_tool x',
    kind: 'internal',
    status: 'unset',
    start_ms: index,
    end_ms: index + 1,
    duration_ms: 1,
    attributes: { [key]: value },
    ended: true,
  };
}

describe('conditions on the values agentcheck writes in its own attributes', () => {
  it("refuses the black-box testers' conditions, which could never match (a count: {equals: 0} check passed on them)", () => {
    expect(problem('agentcheck.stop_reason', 'is', 'endturn')).toBe(
      `${AT}: attribute "agentcheck.stop_reason" is one of end_turn, max_turns, paused, error, max_tokens, refusal, content_filter when agentcheck writes it, so this condition could never match: got "endturn"; did you mean "end_turn"?`,
    );
    expect(problem('gen_ai.operation.name', 'is', 'execute_tol')).toMatch(
      /^expect\.checks\[0\]\.spans\.query\.filtering\.value: attribute "gen_ai\.operation\.name" is one of invoke_agent, chat, execute_tool, invoke_workflow, evaluate when agentcheck writes it \(the GenAI conventions name create_agent, embeddings, generate_content, text_completion too\), so this condition could never match: got "execute_tol"; did you mean "execute_tool"\? \(another tracer's own name this close to one of them is matched with operator "matches", value "\^execute_tol\$"\)$/,
    );
    expect(problem('agentcheck.tool.outcome', 'eq', 'errror')).toBe(
      `${AT}: attribute "agentcheck.tool.outcome" is one of ok, error, denied, pending when agentcheck writes it, so this condition could never match: got "errror"; did you mean "error"?`,
    );
    expect(problem('agentcheck.approval.decision', 'eq', 'aprove')).toMatch(/could never match: got "aprove"; did you mean "approve"\?$/);
    // eq compares a number with its text, never a boolean with "true".
    expect(problem('agentcheck.tool.is_error', 'eq', 'true')).toBe(
      `${AT}: attribute "agentcheck.tool.is_error" is a boolean when agentcheck writes it, so this condition could never match: got "true"`,
    );
    expect(problem('agentcheck.tool.source', 'startswith', 'modle')).toBe(
      `${AT}: attribute "agentcheck.tool.source" is one of model, plan, chain, flow when agentcheck writes it, and none of them starts with "modle", so this condition could never match`,
    );
    // Every tool kind agentcheck writes is listed (Tool.kind is typed with them).
    expect(problem('agentcheck.tool.kind', 'is', 'bultin')).toMatch(
      /is one of builtin, http, command, chain, plan, returns, skill, mcp, unknown, external .*did you mean "builtin"\?$/,
    );
  });

  it('words is_not, neq and not_in by what they do: hold for every span that has the attribute', () => {
    expect(problem('agentcheck.tool.outcome', 'is_not', 'errror')).toBe(
      `${AT}: attribute "agentcheck.tool.outcome" is one of ok, error, denied, pending when agentcheck writes it, so this condition would hold for every span that has it: got "errror"; did you mean "error"?`,
    );
    expect(problem('agentcheck.tool.is_error', 'neq', 'false')).toMatch(
      /is a boolean when agentcheck writes it, so this condition would hold for every span that has it: got "false"$/,
    );
    expect(problem('agentcheck.tool.outcome', 'not_in', ['ok', 'denid'])).toBe(
      `${AT}[1]: attribute "agentcheck.tool.outcome" is one of ok, error, denied, pending when agentcheck writes it, so this item excludes no span: got "denid"; did you mean "denied"?`,
    );
    expect(problem('agentcheck.tool.outcome', 'in', ['ok', 'denid'])).toMatch(
      /^expect\.checks\[0\]\.spans\.query\.filtering\.value\[1\]: .*so this item could never match: got "denid"/,
    );
    expect(problem('gen_ai.operation.name', 'neq', 'chta')).toMatch(
      /so this condition would hold for every span that has it: got "chta"; did you mean "chat"\?/,
    );
  });

  it('refuses text, ordering and list comparisons no value satisfies, as the query engine compares', () => {
    expect(problem('agentcheck.tool.is_error', 'contains', 'tr')).toMatch(
      /is a boolean when agentcheck writes it, and operator "contains" reads only text and lists, never a boolean, so this condition could never match$/,
    );
    expect(problem('agentcheck.tool.is_error', 'gt', 'a')).toMatch(/operator "gt" orders only numbers and text, never a boolean/);
    expect(problem('agentcheck.tool.read_only', 'endswith', 'yes')).toMatch(/and neither true nor false ends with "yes", so this condition could never match$/);
    expect(problem('agentcheck.tool.source', 'matches', '^mod$')).toMatch(/none of them matches "\^mod\$"/);
    expect(problem('agentcheck.tool.seq', 'contains', '1')).toMatch(
      /is a whole number from 1 when agentcheck writes it, and operator "contains" reads only text and lists, never a number/,
    );
    expect(problem('agentcheck.turn', 'startswith', '1.')).toBe(
      `${AT}: attribute "agentcheck.turn" is a whole number from 0 when agentcheck writes it, written with digits only, so this condition could never match: got "1."`,
    );
    expect(problem('agentcheck.turn', 'gte', 'abc')).toMatch(
      /a number orders only against a number or numeric text, so this condition could never match: got "abc"$/,
    );
    expect(problem('agentcheck.turn', 'is', '2')).toMatch(/is a whole number from 0 .*could never match: got "2"$/);
    expect(problem('agentcheck.tool.seq', 'in', [1, 'x'])).toMatch(/^expect\.checks\[0\]\.spans\.query\.filtering\.value\[1\]: .*could never match: got "x"$/);
    expect(problem('agentcheck.tool.outcome', 'is', ['ok'])).toMatch(/got \["ok"\] \(a list equals only a list; use "in" for one of several\)$/);
  });

  it('refuses a bound below the smallest number an attribute holds, and a regex no digits match (black-box nit)', () => {
    expect(problem('agentcheck.turn', 'lt', 0)).toBe(
      `${AT}: attribute "agentcheck.turn" is a whole number from 0 when agentcheck writes it, and none is less than 0, so this condition could never match`,
    );
    expect(problem('agentcheck.turn', 'lte', '-1')).toMatch(
      /is a whole number from 0 when agentcheck writes it, and none is at most "-1", so this condition could never match$/,
    );
    // Tool calls and chain step attempts are counted from 1.
    expect(problem('agentcheck.tool.seq', 'lt', 1)).toBe(
      `${AT}: attribute "agentcheck.tool.seq" is a whole number from 1 when agentcheck writes it, and none is less than 1, so this condition could never match`,
    );
    expect(problem('agentcheck.chain.attempt', 'lte', 0.5)).toMatch(
      /is a whole number from 1 .*and none is at most 0\.5, so this condition could never match$/,
    );
    expect(problem('agentcheck.chain.attempt', 'is', 0)).toMatch(/is a whole number from 1 .*could never match: got 0$/);
    expect(problem('agentcheck.tool.seq', 'not_in', [0, 1])).toMatch(
      /^expect\.checks\[0\]\.spans\.query\.filtering\.value\[0\]: .*so this item excludes no span: got 0$/,
    );
    expect(problem('agentcheck.turn', 'matches', '^[a-z]+$')).toBe(
      `${AT}: attribute "agentcheck.turn" is a whole number from 0 when agentcheck writes it, written with one digit or more, and the regex matches no such text, so this condition could never match: got "^[a-z]+$"`,
    );
    expect(problem('agentcheck.plan.items', 'matches', '\\.5')).toMatch(/the regex matches no such text, so this condition could never match: got "\\\\.5"$/);
    // A number's text is never empty: a regex that matches the empty text alone is refused too.
    for (const regex of ['^$', '^\\d{0}$', '^(?:$)', '$^']) {
      expect(problem('agentcheck.turn', 'matches', regex)).toMatch(
        /written with one digit or more, and the regex matches no such text, so this condition could never match/,
      );
    }
  });

  it("accepts what can match: the values written, eq and in with a number as text, text a value satisfies, and other tracers' operation names", () => {
    for (const [key, operator, value] of [
      ['agentcheck.tool.is_error', 'eq', true],
      ['agentcheck.tool.is_error', 'startswith', 'tr'],
      ['agentcheck.tool.is_error', 'matches', '^(true|false)$'],
      ['agentcheck.tool.seq', 'eq', '2'],
      ['agentcheck.tool.seq', 'in', [1, '2']],
      ['agentcheck.tool.seq', 'startswith', '1'],
      ['agentcheck.tool.seq', 'gt', '3'],
      ['agentcheck.tool.seq', 'matches', '^1\\d*$'],
      ['agentcheck.turn', 'matches', '^(0|[a-z]+)$'],
      ['agentcheck.turn', 'lt', 1],
      ['agentcheck.turn', 'lt', '0.5'],
      ['agentcheck.turn', 'lte', 0],
      ['agentcheck.turn', 'gt', -5],
      ['agentcheck.tool.seq', 'lte', '1'],
      ['agentcheck.chain.attempt', 'is', 1],
      ['agentcheck.tool.source', 'startswith', 'mod'],
      ['agentcheck.tool.source', 'gt', 'c'],
      ['agentcheck.tool.outcome', 'contains', 'err'],
      ['agentcheck.tool.outcome', 'not_in', ['ok', 'error', 'denied', 'pending']],
      ['agentcheck.tool.kind', 'is', 'external'],
      ['agentcheck.stop_reason', 'in', ['end_turn', 'max_turns']],
      ['gen_ai.operation.name', 'is', 'embeddings'],
      ['gen_ai.operation.name', 'is', 'evaluate'],
      // An external agent's GenAI spans may name operations of their own: only a near miss is refused.
      ['gen_ai.operation.name', 'is', 'execute_event_loop_cycle'],
      ['gen_ai.operation.name', 'startswith', 'execute_tol'],
      ['gen_ai.operation.name', 'matches', '^execute_tol$'],
      ['agentcheck.tool.outcome', 'exists', undefined],
    ] as const) {
      expect(problem(key, operator, value), `${key} ${operator} ${JSON.stringify(value)}`).toBe('accepted');
    }
  });

  it('refuses a condition only when the query engine matches no span holding any value agentcheck writes (or, negated, every one)', () => {
    const numbers = (min: number) => Array.from({ length: 40 }, (_v, i) => min + i);
    const operands: unknown[] = [
      true,
      false,
      'true',
      0,
      1,
      '1',
      -1,
      '0',
      12,
      'x',
      '',
      'ok',
      'err',
      'OK',
      'e',
      'r',
      'model',
      'mod',
      'end_turn',
      'turn',
      'a',
      'z',
      ['ok'],
      '^e',
      '(ok|if)$',
      '^\\d+$',
      '^[a-z]+$',
      '1|x',
    ];
    const operators: QueryOperator[] = ['is', 'is_not', 'eq', 'neq', 'gt', 'lte', 'contains', 'startswith', 'endswith', 'matches', 'in', 'not_in'];
    const tried = { refused: 0, accepted: 0 };
    for (const [key, rule] of Object.entries(OWN_ATTRIBUTE_VALUES)) {
      if ('others' in rule && rule.others) continue;
      const written = 'words' in rule ? [...rule.words] : rule.type === 'boolean' ? [true, false] : numbers(rule.min);
      const spans = written.map((value, index) => span(key, value as AttributeValue, index));
      for (const operator of operators) {
        for (const operand of operands) {
          const list = operator === 'in' || operator === 'not_in';
          const value = list ? (Array.isArray(operand) ? operand : [operand]) : operand;
          // Only values the query language takes for the operator (validateQuery refuses the others).
          const scalarText = typeof value === 'string' || typeof value === 'number';
          if ((operator === 'gt' || operator === 'lte') && !scalarText) continue;
          if (['contains', 'startswith', 'endswith', 'matches'].includes(operator) && !scalarText) continue;
          const condition: QueryCondition = { field: 'attributes', key, operator, value };
          const refused = ownConditionProblems(condition).length > 0;
          tried[refused ? 'refused' : 'accepted']++;
          const { count } = querySpans(spans, { filtering: condition });
          const label = `${key} ${operator} ${JSON.stringify(value)}: ${count} of ${spans.length} matched`;
          const negated = operator === 'is_not' || operator === 'neq' || operator === 'not_in';
          if (refused) expect(count, label).toBe(negated ? spans.length : 0);
          // Over a finite list of values the rule is exact: what it accepts tells spans apart.
          else if ('words' in rule || rule.type === 'boolean') {
            if (!negated) expect(count, label).toBeGreaterThan(0);
            else if (!list) expect(count, label).toBeLessThan(spans.length);
          }
        }
      }
    }
    expect(tried.refused).toBeGreaterThan(500);
    expect(tried.accepted).toBeGreaterThan(500);
  });

  it("accepts, in a spans file, the values its spans hold there (an older version's, another tracer's)", () => {
    const spans = [span('agentcheck.tool.kind', 'legacy', 0), span('gen_ai.operation.name', 'chats', 1), span('agentcheck.turn', '3', 2)];
    const check = (key: string, operator: string, value: unknown) => () =>
      validateOwnAttributeKeys(
        { filtering: { field: 'attributes', key, operator: operator as QueryOperator, value } },
        memoryLocator('--where'),
        presentAttributes(spans),
      );
    expect(check('agentcheck.tool.kind', 'is', 'legacy')).not.toThrow();
    expect(check('agentcheck.tool.kind', 'startswith', 'leg')).not.toThrow();
    expect(check('gen_ai.operation.name', 'is', 'chats')).not.toThrow();
    expect(check('agentcheck.turn', 'contains', '3')).not.toThrow();
    expect(check('agentcheck.tool.kind', 'is', 'bultin')).toThrow(
      /--where at filtering\.value: attribute "agentcheck.tool.kind" is one of .*did you mean "builtin"\?/,
    );
    expect(check('agentcheck.tool.is_error', 'is', 'true')).toThrow(/is a boolean when agentcheck writes it/);
  });
});
