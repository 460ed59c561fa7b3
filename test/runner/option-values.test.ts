import { describe, expect, it } from 'vitest';
import { collectFolders, positiveInt, shardSpec, timeoutMs, wholeNumber } from '../../src/runner/commands/option-values.js';

describe('number flags and --shard', () => {
  it('treat surrounding spaces alike: trimmed, for every number flag and --shard', () => {
    expect([positiveInt(' 3'), positiveInt('3 '), wholeNumber(' 0 '), timeoutMs(' 5000')]).toEqual([3, 3, 0, 5000]);
    expect(shardSpec(' 1/2')).toEqual({ index: 1, total: 2 });
    expect(shardSpec('2/4 ')).toEqual({ index: 2, total: 4 });
  });

  it('still refuse anything but digits inside the value', () => {
    for (const value of ['1 /2', '1/ 2', '1/2/3', '', ' ']) expect(() => shardSpec(value), JSON.stringify(value)).toThrow('expected I/N');
    // Number() reads 1e3, 0x2 and 2. as whole numbers; a flag that says "a whole number" does not.
    for (const value of ['3 3', '1e3', '0x2', '2.', '']) expect(() => positiveInt(value), JSON.stringify(value)).toThrow('expected a whole number >= 1');
  });
});

describe('--overlay folders', () => {
  it('refuse an empty item anywhere in the comma list, quoting the value given', () => {
    expect(() => collectFolders('skills/a,', undefined)).toThrow('expected a folder or a comma list of folders, got "skills/a," (an empty item)');
    expect(() => collectFolders(',skills/a', ['x'])).toThrow('got ",skills/a" (an empty item)');
    expect(collectFolders('skills/a, skills/b', ['x'])).toEqual(['x', 'skills/a', 'skills/b']);
  });
});
