import { describe, expect, it } from 'vitest';
import { check, evidenceOf } from './check-helpers.js';

// The three examples of "Where agentcheck deliberately differs from LangChain's agentevals"
// in docs/verdicts.md, so the documentation cannot drift from the behaviour.
describe('documented differences from agentevals', () => {
  it('argument direction is fixed: subset with superset args allows extra actual arguments', () => {
    const evidence = evidenceOf([[{ name: 'search', args: { q: 'x', limit: 5 } }]]);
    const result = check('tool_sequence', { mode: 'subset', args_mode: 'superset', calls: [{ tool: 'search', args: { q: 'x' } }] }, evidence);
    expect(result.status, result.reason).toBe('pass');
  });

  it('strict is over calls: parallel calls of one response may come in any order (in_order too)', () => {
    const evidence = evidenceOf([[{ name: 'email' }, { name: 'lookup' }]]);
    for (const mode of ['strict', 'in_order']) {
      const result = check('tool_sequence', { mode, calls: [{ tool: 'lookup' }, { tool: 'email' }] }, evidence);
      expect(result.status, result.reason).toBe('pass');
    }
  });

  it('maximum matching finds the pairing first fit misses', () => {
    const evidence = evidenceOf([[{ name: 'search', args: { q: 'x' } }], [{ name: 'search', args: { q: 'y' } }]]);
    const result = check(
      'tool_sequence',
      { mode: 'superset', args_mode: 'superset', calls: [{ tool: 'search' }, { tool: 'search', args: { q: 'x' } }] },
      evidence,
    );
    expect(result.status, result.reason).toBe('pass');
  });
});
