import { describe, expect, it } from 'vitest';
import { positiveInt, shardSpec, timeoutMs, wholeNumber } from '../../src/runner/commands/option-values.js';

describe('number flags and --shard', () => {
  it('treat surrounding spaces alike: trimmed, for every number flag and --shard', () => {
    expect([positiveInt(' 3'), positiveInt('3 '), wholeNumber(' 0 '), timeoutMs(' 5000')]).toEqual([3, 3, 0, 5000]);
    expect(shardSpec(' 1/2')).toEqual({ index: 1, total: 2 });
    expect(shardSpec('2/4 ')).toEqual({ index: 2, total: 4 });
  });

  it('still refuse anything but digits inside the value', () => {
    for (const value of ['1 /2', '1/ 2', '1/2/3', '', ' ']) expect(() => shardSpec(value), JSON.stringify(value)).toThrow('expected I/N');
    for (const value of ['3 3', '1e3', '']) expect(() => positiveInt(value), JSON.stringify(value)).toThrow('expected a whole number >= 1');
  });
});
