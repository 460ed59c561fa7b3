import { describe, expect, it } from 'vitest';
import { terminalWidth } from '../../src/runner/commands/terminal-width.js';

describe('terminalWidth', () => {
  it('takes COLUMNS first, then the terminal, then 100 when stdout is not a terminal', () => {
    expect(terminalWidth({ COLUMNS: '80' }, 200)).toEqual({ columns: 80 });
    expect(terminalWidth({ COLUMNS: ' 72 ' }, undefined)).toEqual({ columns: 72 });
    expect(terminalWidth({}, 132)).toEqual({ columns: 132 });
    expect(terminalWidth({}, undefined)).toEqual({ columns: 100 });
    expect(terminalWidth({ COLUMNS: '' }, undefined)).toEqual({ columns: 100 });
  });

  it('lays a tiny width out at 40 columns', () => {
    expect(terminalWidth({ COLUMNS: '10' }, undefined)).toEqual({ columns: 40 });
    expect(terminalWidth({ COLUMNS: '0' }, 120)).toEqual({ columns: 40 });
    expect(terminalWidth({}, 20)).toEqual({ columns: 40 });
  });

  it('says so when COLUMNS is not a whole number, and uses the terminal or the default', () => {
    for (const bad of ['wide', '80.5', '-3']) {
      const width = terminalWidth({ COLUMNS: bad }, undefined);
      expect(width.columns).toBe(100);
      expect(width.warning).toContain(`ignoring COLUMNS=${JSON.stringify(bad)}: expected a whole number of columns`);
    }
    expect(terminalWidth({ COLUMNS: 'x' }, 90).columns).toBe(90);
  });
});
