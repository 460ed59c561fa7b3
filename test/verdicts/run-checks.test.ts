import { describe, expect, it } from 'vitest';
import { memoryLocator } from '../../src/config/assert-format.js';
import { ConfigError, ConfigErrors } from '../../src/config/errors.js';
import { SourceDocument } from '../../src/config/source.js';
import { documentLocator } from '../../src/config/assert-format.js';
import { CHECKS } from '../../src/verdicts/checks/index.js';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { runChecks, validateChecks } from '../../src/verdicts/run-checks.js';
import { evidenceOf } from './check-helpers.js';
import { RunBuilder } from './span-builder.js';

describe('the catalog', () => {
  it('has every kind of docs/verdicts.md plus the budgets, custom and judge', () => {
    expect(Object.keys(CHECKS).sort()).toEqual([
      'approval',
      'custom',
      'file',
      'judge',
      'max_duration_ms',
      'max_tokens',
      'max_tool_calls',
      'max_turns',
      'no_side_effect_after_deny',
      'no_tool_errors',
      'output',
      'resolved',
      'spans',
      'state',
      'tool_called',
      'tool_not_called',
      'tool_order',
      'tool_returned',
      'tool_sequence',
    ]);
    for (const [kind, check] of Object.entries(CHECKS)) expect(check.kind).toBe(kind);
  });
});

describe('validateChecks', () => {
  const locate = memoryLocator('s.yaml', ['expect', 'checks']);
  const problem = (list: unknown) => {
    try {
      validateChecks(list, locate);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };
  it('needs a list of one-key maps with known kinds', () => {
    expect(problem({})).toContain('expected a list of checks');
    expect(problem([{ tool_called: { tool: 'a' }, output: { contains: 'x' } }])).toContain('at expect.checks[0]: expected a one-key map');
    expect(problem([{ tool_calls: { tool: 'a' } }])).toContain('at expect.checks[0].tool_calls: unknown check kind "tool_calls"; expected one of: tool_called');
  });
  it('points at the line of the bad parameter in a YAML file', () => {
    const doc = SourceDocument.parse('s.yaml', 'checks:\n  - tool_called: {tool: a}\n  - output:\n      contain: x\n');
    try {
      validateChecks((doc.value as { checks: unknown }).checks, documentLocator(doc, ['checks']));
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).line).toBe(4);
      expect((error as Error).message).toContain('s.yaml:4:7 at checks[1].output.contain: unknown key "contain"');
    }
  });
  it("reports a tool check's problems in one pass: a misspelt key hides neither an args matcher nor the tool's result", () => {
    const list = [
      { tool_called: { tool: 'refund', mni: 1, args: { order_id: { $regx: '1' } } } },
      { tool_returned: { tool: 'refund', resut: 1, result: { $rang: [1, 2] } } },
      { tool_not_called: { tool: 'refund', nestd: true, args: { id: { $anyy: true } } } },
    ];
    const message = problem(list) ?? '';
    for (const expected of [
      'expect.checks[0].tool_called.mni: unknown key "mni"',
      'expect.checks[0].tool_called.args.order_id.$regx',
      'expect.checks[1].tool_returned.resut: unknown key "resut"',
      'expect.checks[1].tool_returned.result.$rang',
      'expect.checks[2].tool_not_called.nestd: unknown key "nestd"',
      'expect.checks[2].tool_not_called.args.id.$anyy',
    ]) {
      expect(message).toContain(expected);
    }
  });
});

describe('runChecks', () => {
  it('ids are kind#index, in list order', () => {
    const results = runChecks([{ tool_called: { tool: 'a' } }, { max_turns: 5 }, { tool_called: { tool: 'b' } }], evidenceOf([[{ name: 'a' }]]));
    expect(results.map((result) => [result.id, result.status])).toEqual([
      ['tool_called#0', 'pass'],
      ['max_turns#1', 'pass'],
      ['tool_called#2', 'fail'],
    ]);
  });
  it('every check is an error on incomplete evidence', () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'a' }]);
    const spans = run.spans();
    spans[2] = { ...spans[2], ended: false };
    const [result] = runChecks([{ tool_called: { tool: 'a' } }], buildEvidence({ spans }));
    expect(result).toMatchObject({ status: 'error', reason: expect.stringMatching(/^the evidence is incomplete: span "execute_tool a" .* had not ended/) });
  });
  it('a check that throws is an error, not a crash', () => {
    const [result] = runChecks([{ spans: { query: { filtering: { field: 'nope' } } } }], evidenceOf([]));
    expect(result.status).toBe('error');
    expect(result.reason).toContain('the check could not run');
  });
});

describe('re-scoring a saved run', () => {
  it('gives the same results from spans.jsonl-shaped records', () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'lookup_order', args: { order_id: '1' } }]);
    run.text();
    const spans = run.spans();
    const saved = spans.map((span) => JSON.parse(JSON.stringify(span)));
    const list = [{ tool_called: { tool: 'lookup_order', args: { order_id: '1' } } }, { max_turns: 2 }];
    expect(runChecks(list, buildEvidence({ spans: saved }))).toEqual(runChecks(list, buildEvidence({ spans })));
  });
});

describe('spans checks name attribute keys that exist', () => {
  const locate = memoryLocator('s.yaml', ['expect', 'checks']);
  const spansCheck = (key: string) => [
    {
      spans: {
        query: {
          filtering: {
            operator: 'or',
            conditions: [
              { field: 'attributes', key: 'gen_ai.tool.name', operator: 'exists' },
              { field: 'attributes', key, operator: 'exists' },
            ],
          },
        },
        count: { equals: 0 },
      },
    },
  ];

  it('an agentcheck.* or gen_ai.* key nothing writes is refused, with a suggestion', () => {
    let caught: unknown;
    try {
      validateChecks(spansCheck('agentcheck.tool.refsed'), locate);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.path).toBe('expect.checks[0].spans.query.filtering.conditions[1].key');
    expect(error.expected).toContain('agentcheck never writes attribute "agentcheck.tool.refsed"');
    expect(error.expected).toContain('did you mean "agentcheck.tool.refused"?');
    expect(() => validateChecks(spansCheck('gen_ai.usage.input_token'), locate)).toThrow(/did you mean "gen_ai.usage.input_tokens"/);
  });

  it('a value one of its typed attributes never holds is refused (is, is_not, in, not_in), with a suggestion', () => {
    const condition = (key: string, operator: string, value: unknown) => [
      { spans: { query: { filtering: { field: 'attributes', key, operator, value } }, count: { max: 0 } } },
    ];
    const problem = (key: string, operator: string, value: unknown): string => {
      try {
        validateChecks(condition(key, operator, value), locate);
      } catch (error) {
        return `${(error as ConfigError).path}: ${(error as ConfigError).expected}`;
      }
      return 'accepted';
    };
    expect(problem('agentcheck.tool.is_error', 'is', 'true')).toBe(
      'expect.checks[0].spans.query.filtering.value: attribute "agentcheck.tool.is_error" is a boolean when agentcheck writes it, so this condition could never match: got "true"',
    );
    expect(problem('agentcheck.tool.outcome', 'is_not', 'errror')).toMatch(
      /is one of ok, error, denied, pending when agentcheck writes it, .*; did you mean "error"\?$/,
    );
    expect(problem('agentcheck.tool.seq', 'in', [1, 'two'])).toMatch(
      /^expect\.checks\[0\]\.spans\.query\.filtering\.value\[1\]: attribute "agentcheck\.tool\.seq" is a whole number from 1/,
    );
    // What it writes, and operators that compare otherwise, are accepted.
    for (const [key, operator, value] of [
      ['agentcheck.tool.is_error', 'is', true],
      ['agentcheck.tool.outcome', 'in', ['ok', 'denied']],
      ['agentcheck.tool.seq', 'eq', '2'],
      // in compares as eq does: "2" equals 2.
      ['agentcheck.tool.seq', 'in', [1, '2']],
      ['agentcheck.tool.outcome', 'contains', 'err'],
      ['agentcheck.output', 'is', 'anything'],
    ] as const) {
      expect(problem(key, operator, value), `${key} ${operator}`).toBe('accepted');
    }
  });

  it('keys agentcheck writes and keys of other namespaces are accepted', () => {
    expect(() => validateChecks(spansCheck('agentcheck.flow.state'), locate)).not.toThrow();
    expect(() => validateChecks(spansCheck('mcp.method.name'), locate)).not.toThrow();
    expect(() => validateChecks(spansCheck('http.status_code'), locate)).not.toThrow();
  });

  it('reports every bad check of a list, each located', () => {
    let caught: unknown;
    try {
      validateChecks([{ tool_called: {} }, { output: { contain: 'x' } }], locate);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigErrors);
    expect((caught as ConfigErrors).errors.map((error) => error.path)).toEqual(['expect.checks[0].tool_called', 'expect.checks[1].output.contain']);
  });
});
