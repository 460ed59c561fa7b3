import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioLines } from '../../../src/runner/report/scenario-lines.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('ScenarioLines', () => {
  it('finds each scenario, one expanded from a dataset by its name template too', () => {
    const dir = tempDir({
      'a.scenarios.yaml': [
        'scenarios:',
        '  - name: plain',
        '    inputs: {}',
        '  - name: "refund {{ vars.order }} ({{vars.reason}})"',
        '    dataset: orders.csv',
        '  - name: "ask (x)"',
        '',
      ].join('\n'),
      'b.scenario.yaml': 'agent: a.yaml\nname: "one {{ vars.id }}"\n',
    });
    const lines = new ScenarioLines();
    const file = join(dir, 'a.scenarios.yaml');
    expect(lines.lineOf(file, 'plain')).toBe(2);
    expect(lines.lineOf(file, 'refund A-1 (damaged)')).toBe(4);
    expect(lines.lineOf(file, 'refund A-2, late (other)')).toBe(4);
    expect(lines.lineOf(file, 'ask (x)')).toBe(6);
    expect(lines.lineOf(file, 'refund A-1')).toBeUndefined(); // the literal parts must match
    expect(lines.lineOf(join(dir, 'b.scenario.yaml'), 'one 7')).toBe(2);
  });
});
