import { describe, expect, it } from 'vitest';
import { spansToJsonl } from '../../src/spans/jsonl.js';
import { RunBuilder } from '../verdicts/span-builder.js';
import { configErrorOf } from '../helpers/config-error.js';

function sampleSpans() {
  const run = new RunBuilder('bot', 'trace-a');
  run.text();
  return run.spans();
}

describe('spansToJsonl', () => {
  it('writes one span record per line', () => {
    const spans = sampleSpans();
    const text = spansToJsonl(spans);
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line)),
    ).toEqual(spans);
  });

  it('names a value that is not a list of span records, never a TypeError or a line per character', () => {
    expect(configErrorOf(() => spansToJsonl('abc' as never)).message).toBe(
      'spansToJsonl at spans: expected an array of span records (readSpansJsonl), got string "abc"',
    );
    expect(configErrorOf(() => spansToJsonl(null as never)).message).toBe(
      'spansToJsonl at spans: expected an array of span records (readSpansJsonl), got null',
    );
    const [span] = sampleSpans();
    expect(configErrorOf(() => spansToJsonl([span, 5] as never)).message).toBe(
      'spansToJsonl at spans[1]: expected a span record {trace_id, span_id, name, attributes, ...}, got number 5',
    );
    expect(configErrorOf(() => spansToJsonl([{ ...span, attributes: null }] as never)).message).toBe(
      "spansToJsonl at spans[0].attributes: expected an object (a span record's attributes), got null",
    );
    // A value JSON cannot write, inside a record that has the right shape.
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(configErrorOf(() => spansToJsonl([span, { ...span, attributes: { n: 1n } }] as never)).message).toMatch(
      /^spansToJsonl at spans\[1\]: cannot be written as JSON: .*BigInt/,
    );
    expect(configErrorOf(() => spansToJsonl([{ ...span, attributes: { c: cycle } }] as never)).message).toMatch(
      /^spansToJsonl at spans\[0\]: cannot be written as JSON: .*circular/,
    );
  });
});
