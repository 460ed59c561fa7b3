import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import type { CommandIO } from '../../src/runner/commands/cli-io.js';
import { spansQueryCommand } from '../../src/runner/commands/spans-query-command.js';
import { readSpansJsonl, spansToJsonl } from '../../src/spans/jsonl.js';
import { tempDir } from '../helpers/temp-dir.js';
import { captureStream } from '../runner/reporters/fixture-report.js';
import { RunBuilder } from '../verdicts/span-builder.js';

// Tests may run as root, who can read any file: an EACCES is simulated for files named locked.jsonl.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const stream = await import('node:stream');
  const createReadStream = ((path: unknown, ...rest: unknown[]) => {
    if (String(path).endsWith('locked.jsonl')) {
      const { Readable } = stream;
      return new Readable({
        read() {
          this.destroy(Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), { code: 'EACCES', errno: -13, syscall: 'open' }));
        },
      });
    }
    return (fs.createReadStream as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.createReadStream;
  return { ...fs, createReadStream, default: { ...fs, createReadStream } };
});

function spansText(): string {
  const run = new RunBuilder('bot', 'trace-a');
  run.modelCalls([{ name: 'lookup_order', args: { order_id: '1' }, read_only: true }]);
  run.text();
  return spansToJsonl(run.spans());
}

async function query(dir: string, options: { trace?: string; where?: string; limit?: number }, file = 'spans.jsonl') {
  const stdout = captureStream();
  const stderr = captureStream();
  const io: CommandIO = { stdout: stdout.stream, stderr: stderr.stream, cwd: dir, env: {}, isTTY: false };
  const exitCode = await spansQueryCommand(file, options, io);
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

describe('agentcheck spans query --where', () => {
  it('refuses null, an empty string and JSON that is not an object (exit 2), rather than matching every span', async () => {
    const dir = tempDir({ 'spans.jsonl': spansText() });
    for (const where of ['null', '', '  ', '42', '"status"', '[{"field":"name","operator":"is","value":"x"}]', 'true']) {
      const result = await query(dir, { where });
      expect(result.exitCode, `--where ${JSON.stringify(where)}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/^agentcheck: invalid input: --where: expected a JSON object: a filtering \{operator, conditions\}/);
      expect(result.stderr).not.toMatch(/unexpected error|TypeError/);
      expect(result.stdout).toBe('');
    }
  });

  it('refuses a key given twice in --where, as a query in a file is refused, instead of keeping the last', async () => {
    const dir = tempDir({ 'spans.jsonl': spansText() });
    const where = '{"operator":"and","conditions":[{"field":"name","operator":"startswith","value":"execute_tool","value":"chat"}]}';
    const result = await query(dir, { where });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--where: expected a JSON object');
    expect(result.stderr).toContain('the key "value" appears twice in one object');
    expect(result.stdout).toBe('');
    const broken = await query(dir, { where: '{"field": "name",' });
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/--where: expected a JSON object.*; it is not valid JSON: /);
  });

  it('locates problems relative to the --where object, also with --trace', async () => {
    const dir = tempDir({ 'spans.jsonl': spansText() });
    const where = '{"conditions":[{"field":"name","operator":"is","value":"x","extra":1}]}';
    for (const trace of [undefined, 'trace-a']) {
      const result = await query(dir, { where, trace });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('--where at conditions[0].extra: unknown key "extra"');
      expect(result.stderr).not.toContain('filtering.conditions');
    }
    const single = await query(dir, { where: '{"field":"status","operator":"is","value":"ERROR"}', trace: 'trace-a' });
    expect(single.exitCode).toBe(2);
    expect(single.stderr).toContain('--where at value: field "status" is one of unset, ok, error, got "ERROR"');
    const whole = await query(dir, { where: '{"filtering":{"field":"name","operator":"gt","value":"a"},"windowing":{"limit":1}}', trace: 'trace-a' });
    expect(whole.exitCode).toBe(2);
    expect(whole.stderr).toContain('--where at filtering.operator: operator "gt" applies only to duration_ms and attributes');
  });

  it('refuses an agentcheck.* attribute key agentcheck never writes, as a spans check does; --limit 0 gives only the count', async () => {
    const dir = tempDir({ 'spans.jsonl': spansText() });
    const misspelt = await query(dir, { where: '{"field":"attributes","key":"agentcheck.tool.refsed","operator":"exists"}' });
    expect(misspelt.exitCode).toBe(2);
    expect(misspelt.stderr).toMatch(/--where at key: no span here carries attribute "agentcheck\.tool\.refsed".*did you mean "agentcheck\.tool\.refused"/);
    // A GenAI convention key other instrumentation writes (an external agent's own spans) is fine.
    expect((await query(dir, { where: '{"field":"attributes","key":"gen_ai.agent.id","operator":"exists"}' })).exitCode).toBe(0);
    // So is a key of these namespaces that the file's spans carry (an external agent's own).
    const carried = spansText().replace('"gen_ai.tool.name":"lookup_order"', '"gen_ai.tool.name":"lookup_order","agentcheck.mine":"w"');
    expect(carried).toContain('"agentcheck.mine":"w"');
    const own = tempDir({ 'spans.jsonl': carried });
    const found = await query(own, { where: '{"field":"attributes","key":"agentcheck.mine","operator":"is","value":"w"}' });
    expect(found.exitCode, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).count).toBe(1);
    const countOnly = await query(dir, { where: '{"field":"name","operator":"startswith","value":"chat"}', limit: 0 });
    expect(countOnly.exitCode, countOnly.stderr).toBe(0);
    expect(JSON.parse(countOnly.stdout)).toEqual({ count: 2, spans: [] });
  });

  it('refuses a value agentcheck never writes in its typed attributes, unless the file holds it there', async () => {
    const dir = tempDir({ 'spans.jsonl': spansText() });
    const typo = await query(dir, { where: '{"field":"attributes","key":"agentcheck.tool.kind","operator":"is","value":"bultin"}' });
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toMatch(/--where at value: attribute "agentcheck\.tool\.kind" is one of builtin, .*did you mean "builtin"\?/);
    // A file of an older version (or another tracer's) may hold a kind agentcheck does not write now.
    const held = spansText().replace(/"agentcheck\.tool\.kind":"[a-z]+"/, '"agentcheck.tool.kind":"legacy"');
    expect(held).toContain('"agentcheck.tool.kind":"legacy"');
    const found = await query(tempDir({ 'spans.jsonl': held }), {
      where: '{"field":"attributes","key":"agentcheck.tool.kind","operator":"is","value":"legacy"}',
    });
    expect(found.exitCode, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).count).toBe(1);
  });

  it("--limit caps the query's own windowing: its order stays, and a lower limit of its own wins", async () => {
    const dir = tempDir({ 'spans.jsonl': spansText() });
    const all = JSON.parse((await query(dir, { where: '{"field":"name","operator":"startswith","value":"chat"}' })).stdout) as {
      spans: Array<{ start_ms: number }>;
    };
    const newestFirst = '{"filtering":{"field":"name","operator":"startswith","value":"chat"},"windowing":{"order":"desc"}}';
    const capped = JSON.parse((await query(dir, { where: newestFirst, limit: 1 })).stdout) as { count: number; spans: Array<{ start_ms: number }> };
    expect(capped.count).toBe(2);
    expect(capped.spans.map((span) => span.start_ms)).toEqual([Math.max(...all.spans.map((span) => span.start_ms))]);
    const ownLimit = '{"filtering":{"field":"name","operator":"startswith","value":"chat"},"windowing":{"limit":1}}';
    expect(JSON.parse((await query(dir, { where: ownLimit, limit: 3 })).stdout).spans).toHaveLength(1);
  });

  it('orders an attribute against a quoted number as against the number (gt "0" is gt 0)', async () => {
    const dir = tempDir({ 'spans.jsonl': spansText() });
    const counts: number[] = [];
    for (const value of ['0', '"0"']) {
      const result = await query(dir, { where: `{"field":"attributes","key":"agentcheck.turn","operator":"gt","value":${value}}` });
      expect(result.exitCode, result.stderr).toBe(0);
      counts.push(JSON.parse(result.stdout).count);
    }
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBe(counts[0]);
  });

  it('refuses an empty --trace, and still answers valid queries', async () => {
    const dir = tempDir({ 'spans.jsonl': spansText() });
    expect((await query(dir, { trace: '' })).exitCode).toBe(2);
    const ok = await query(dir, { trace: 'trace-a', where: '{"field":"status","operator":"in","value":["ok","unset"]}' });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).count).toBeGreaterThan(0);
    // A trace the file does not hold is refused (a cut id would read as a run with no calls).
    const unknown = await query(dir, { trace: 'trace-a1' });
    expect(unknown.exitCode).toBe(2);
    // With its documented code, as MCP's query_spans prints it.
    expect(unknown.stderr).toMatch(/^agentcheck: invalid input: spans\.jsonl: UNKNOWN_TRACE: no trace trace-a1 here \(the file holds \d+ trace\(s\)\)/);
  });
});

describe('reading spans.jsonl', () => {
  it('accepts a UTF-8 byte order mark at the start', async () => {
    const text = spansText();
    const dir = tempDir({ 'spans.jsonl': `\uFEFF${text}` });
    expect(await readSpansJsonl(join(dir, 'spans.jsonl'))).toHaveLength(text.trim().split('\n').length);
    const result = await query(dir, {});
    expect(result.exitCode, result.stderr).toBe(0);
  });

  it('names the line of a record that is not a span record (exit 2), never a TypeError mid-query', async () => {
    const lines = spansText().trim().split('\n');
    const bare = JSON.parse(lines[1]) as Record<string, unknown>;
    delete bare.attributes;
    lines[1] = JSON.stringify(bare);
    const dir = tempDir({ 'spans.jsonl': `${lines.join('\n')}\n` });
    await expect(readSpansJsonl(join(dir, 'spans.jsonl'))).rejects.toThrow(
      /spans\.jsonl:2:1: attributes: expected an object \(a span record's attributes\), got nothing$/,
    );
    const result = await query(dir, { where: '{"field":"attributes","key":"agentcheck.turn","operator":"exists"}' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^agentcheck: invalid input: .*spans\.jsonl:2:1: attributes: expected an object/);
    expect(result.stderr).not.toMatch(/unexpected error|TypeError/);
  });

  it('refuses a line that is not a whole span record, naming its line and field: kind, status, times, ended, attribute values', async () => {
    const [first] = spansText().trim().split('\n');
    const span = JSON.parse(first) as Record<string, unknown>;
    const refused = async (changes: Record<string, unknown>, drop?: string) => {
      const record = { ...span, ...changes };
      if (drop) delete record[drop];
      const dir = tempDir({ 'spans.jsonl': `${first}\n${JSON.stringify(record)}\n` });
      const error = await readSpansJsonl(join(dir, 'spans.jsonl')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message.slice(dir.length + 1);
    };
    expect(await refused({ kind: 'bogus' })).toBe(
      'spans.jsonl:2:1: kind: expected one of internal, server, client, producer, consumer (a span record\'s kind), got string "bogus"',
    );
    expect(await refused({ status: 'OK' })).toBe('spans.jsonl:2:1: status: expected one of unset, ok, error (a span record\'s status), got string "OK"');
    expect(await refused({ start_ms: 'abc' })).toBe('spans.jsonl:2:1: start_ms: expected a finite number (a span record\'s start_ms, in ms), got string "abc"');
    // What spansToJsonl wrote of a NaN time before it refused one.
    expect(await refused({ end_ms: null })).toBe("spans.jsonl:2:1: end_ms: expected a finite number (a span record's end_ms, in ms), got null");
    expect(await refused({}, 'duration_ms')).toBe("spans.jsonl:2:1: duration_ms: expected a finite number (a span record's duration_ms, in ms), got nothing");
    expect(await refused({}, 'ended')).toBe('spans.jsonl:2:1: ended: expected true or false (whether the span had ended), got nothing');
    expect(await refused({ attributes: { o: { a: 1 } } })).toBe(
      "spans.jsonl:2:1: attributes.o: expected a string, number, boolean, null or a list of those (a span attribute's value), got an object",
    );
    expect(await refused({ events: [{ name: 'e', time_ms: '1' }] })).toBe(
      'spans.jsonl:2:1: events[0].time_ms: expected a finite number (an event\'s time, in ms), got string "1"',
    );
  });

  it('says a folder is a folder (exit 2), never a stack trace', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'spans.jsonl'));
    await expect(readSpansJsonl(join(dir, 'spans.jsonl'))).rejects.toThrow(/spans\.jsonl: is a folder; expected a spans\.jsonl file/);
    const result = await query(dir, {});
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^agentcheck: invalid input: .*spans\.jsonl: is a folder; expected a spans\.jsonl file\n$/);
  });

  it('says a file that cannot be read cannot be read', async () => {
    const dir = tempDir({ 'locked.jsonl': spansText() });
    await expect(readSpansJsonl(join(dir, 'locked.jsonl'))).rejects.toThrow(/locked\.jsonl: cannot be read: permission denied$/);
    const result = await query(dir, {}, 'locked.jsonl');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^agentcheck: invalid input: .*locked\.jsonl: cannot be read: permission denied\n$/);
  });
});
