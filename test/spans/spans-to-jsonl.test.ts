import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSpansJsonl, spansToJsonl } from '../../src/spans/jsonl.js';
import { RunBuilder } from '../verdicts/span-builder.js';
import { configErrorOf } from '../helpers/config-error.js';
import { tempDir } from '../helpers/temp-dir.js';

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
    // A value JSON cannot write: no attribute value, and outside the record's fields, still said at its record.
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(configErrorOf(() => spansToJsonl([span, { ...span, attributes: { n: 1n } }] as never)).message).toBe(
      "spansToJsonl at spans[1].attributes.n: expected a string, number, boolean, null or a list of those (a span attribute's value), got bigint 1n",
    );
    expect(configErrorOf(() => spansToJsonl([span, { ...span, extra: 1n }] as never)).message).toMatch(
      /^spansToJsonl at spans\[1\]: cannot be written as JSON: .*BigInt/,
    );
    expect(configErrorOf(() => spansToJsonl([{ ...span, extra: cycle }] as never)).message).toMatch(
      /^spansToJsonl at spans\[0\]: cannot be written as JSON: .*circular/,
    );
  });

  it('refuses what is not a whole span record, at the field, never writing a time as null', () => {
    const [span] = sampleSpans();
    const refused = (changes: Record<string, unknown>, drop?: string) => {
      const record: Record<string, unknown> = { ...span, ...changes };
      if (drop) delete record[drop];
      return configErrorOf(() => spansToJsonl([span, span, record] as never)).message;
    };
    // The tester's record: each of its faults is found, the first one said.
    const bogus = {
      trace_id: 't',
      span_id: 's',
      parent_id: null,
      name: 'n',
      kind: 'bogus',
      status: 'OK',
      start_ms: NaN,
      end_ms: Infinity,
      attributes: { o: { a: 1 } },
    };
    expect(configErrorOf(() => spansToJsonl([bogus] as never)).message).toBe(
      'spansToJsonl at spans[0].kind: expected one of internal, server, client, producer, consumer (a span record\'s kind), got string "bogus"',
    );
    expect(refused({ status: 'OK' })).toBe('spansToJsonl at spans[2].status: expected one of unset, ok, error (a span record\'s status), got string "OK"');
    expect(refused({ start_ms: NaN })).toBe("spansToJsonl at spans[2].start_ms: expected a finite number (a span record's start_ms, in ms), got number NaN");
    expect(refused({ end_ms: Infinity })).toBe(
      "spansToJsonl at spans[2].end_ms: expected a finite number (a span record's end_ms, in ms), got number Infinity",
    );
    expect(refused({}, 'duration_ms')).toBe("spansToJsonl at spans[2].duration_ms: expected a finite number (a span record's duration_ms, in ms), got nothing");
    expect(refused({}, 'ended')).toBe('spansToJsonl at spans[2].ended: expected true or false (whether the span had ended), got nothing');
    expect(refused({ attributes: { o: { a: 1 } } })).toBe(
      "spansToJsonl at spans[2].attributes.o: expected a string, number, boolean, null or a list of those (a span attribute's value), got an object",
    );
    expect(refused({ attributes: { list: ['a', ['b']] } })).toBe(
      "spansToJsonl at spans[2].attributes.list[1]: expected a string, number, boolean or null (an item of an attribute's list), got an array",
    );
    expect(refused({ events: [{ name: 'e', time_ms: 1, attributes: { o: {} } }] })).toBe(
      "spansToJsonl at spans[2].events[0].attributes.o: expected a string, number, boolean, null or a list of those (a span attribute's value), got an object",
    );
  });

  it('writes every attribute value a span may hold, and what it writes reads back', async () => {
    const [span] = sampleSpans();
    // null: what JSON makes of a NaN attribute, read back as such (SpanRecord's type leaves it out).
    const record = { ...span, attributes: { s: 'x', n: 1.5, b: false, list: ['a', null, 'b'], mixed: [1, 'a', true], nan: NaN, none: null } } as never;
    const [line] = spansToJsonl([record]).split('\n');
    expect(JSON.parse(line).attributes).toEqual({ s: 'x', n: 1.5, b: false, list: ['a', null, 'b'], mixed: [1, 'a', true], nan: null, none: null });
    const file = join(tempDir(), 'spans.jsonl');
    writeFileSync(file, spansToJsonl([record]));
    expect((await readSpansJsonl(file))[0].attributes).toEqual(JSON.parse(line).attributes);
  });
});

describe('readSpansJsonl given another file', () => {
  it("says a report.json, a JUnit file or a pretty-printed JSON document is one, rather than quoting the first line's parse error (black-box nit)", async () => {
    const dir = tempDir({
      'report.json': `${JSON.stringify({ schema: 'agentcheck.report/1', rows: [] }, null, 2)}\n`,
      'junit.xml': '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites/>\n',
      'pretty.json': `${JSON.stringify([{ name: 'x' }], null, 2)}\n`,
      'one-line.json': '{"name": "x"\n',
    });
    const messageOf = async (name: string) =>
      (
        await readSpansJsonl(join(dir, name)).then(
          () => expect.fail(`${name} was read`),
          (error: Error) => error,
        )
      ).message;
    expect(await messageOf('report.json')).toBe(
      `${join(dir, 'report.json')}: is an agentcheck report.json, not a spans.jsonl: the run wrote its spans to spans.jsonl beside it`,
    );
    expect(await messageOf('junit.xml')).toBe(
      `${join(dir, 'junit.xml')}: is an XML file (a JUnit report?), not a spans.jsonl: agentcheck run writes the spans to spans.jsonl beside it`,
    );
    expect(await messageOf('pretty.json')).toBe(
      `${join(dir, 'pretty.json')}: holds one JSON document over several lines; expected a spans.jsonl file, one JSON span per line`,
    );
    // A line that is no JSON in a file that is none either keeps the line's own error.
    expect(await messageOf('one-line.json')).toMatch(/one-line\.json:1:1: expected one JSON span per line: /);
  });
});
