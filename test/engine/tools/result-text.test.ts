import { describe, expect, it } from 'vitest';
import { capText, spanResultJson } from '../../../src/engine/tools/result-text.js';

describe('spanResultJson (a tool result on its span)', () => {
  it('keeps a result that fits as its JSON', () => {
    expect(spanResultJson({ ok: true, n: 1 }, 100)).toBe('{"ok":true,"n":1}');
    expect(spanResultJson('plain text', 100)).toBe('"plain text"');
  });

  it('cuts the long strings of a result too long and stays valid JSON: the other keys read back whole', () => {
    const result = { exit_code: 0, stdout: 'a'.repeat(150_000), stderr: '' };
    const json = spanResultJson(result, 100_000);
    expect(json.length).toBeLessThanOrEqual(100_000);
    const back = JSON.parse(json) as typeof result;
    expect(back.exit_code).toBe(0);
    expect(back.stderr).toBe('');
    expect(back.stdout).toMatch(/^a+\[truncated \d+ characters\]$/);
  });

  it('cuts a string to its first 99,900 characters and the marker docs/spans.md gives, nothing between', () => {
    const text = 'abcdefghij'.repeat(30_000);
    const back = JSON.parse(spanResultJson({ text }, 100_000)) as { text: string };
    expect(back.text).toBe(`${text.slice(0, 99_900)}[truncated 200100 characters]`);
  });

  it('cuts a long string result inside its quotes, never in the middle of an escape', () => {
    const json = spanResultJson('\u0000'.repeat(70_000), 100_000);
    expect(json.length).toBeLessThanOrEqual(100_000);
    const back = JSON.parse(json) as string;
    expect(back.replace(/\[truncated \d+ characters\]$/, '')).toBe('\u0000'.repeat(back.indexOf('[')));
  });

  it('cuts a long string only as far as it must, and two long strings alike', () => {
    const one = JSON.parse(spanResultJson('x'.repeat(100_001), 100_000)) as string;
    expect(one.length).toBeGreaterThan(99_000);
    const two = JSON.parse(spanResultJson({ a: 'y'.repeat(60_000), b: 'z'.repeat(60_000) }, 100_000)) as { a: string; b: string };
    expect(two.a.length).toBeGreaterThan(40_000);
    expect(two.b.length).toBe(two.a.length);
  });

  it('cuts a long list to its first items and a marker item: still a list, its items whole', () => {
    const listing = { entries: Array.from({ length: 4_000 }, (_, i) => ({ name: `file-${i}.txt`, type: 'file' })) };
    const json = spanResultJson(listing, 100_000);
    expect(json.length).toBeLessThanOrEqual(100_000);
    const back = JSON.parse(json) as { entries: unknown[] };
    expect(Array.isArray(back.entries)).toBe(true);
    expect(back.entries[0]).toEqual({ name: 'file-0.txt', type: 'file' });
    expect(back.entries.at(-1)).toMatch(/^\[truncated \d+ items\]$/);
    const numbers = JSON.parse(
      spanResultJson(
        Array.from({ length: 50_000 }, (_, i) => i),
        1_000,
      ),
    ) as unknown[];
    expect(numbers.slice(0, 3)).toEqual([0, 1, 2]);
    expect(numbers.at(-1)).toMatch(/^\[truncated \d+ items\]$/);
  });
});

describe('capText (a cut with a [truncated N characters] marker)', () => {
  it('never splits an emoji: a cut that would keep half of a surrogate pair keeps one character less', () => {
    const text = `a${'🎉'.repeat(10)}`;
    // 4 characters would be "a", one emoji and half of the next.
    expect(capText(text, 4)).toBe(`a🎉[truncated ${text.length - 3} characters]`);
    expect(capText(text, 5)).toBe(`a🎉🎉[truncated ${text.length - 5} characters]`);
    const json = spanResultJson(`a${'🎉'.repeat(150_000)}`, 100_000);
    const value = JSON.parse(json) as string;
    expect(value).toMatch(/^a(🎉)+\[truncated \d+ characters\]$/);
    // No lone surrogate: the text encodes to UTF-8 and back unchanged.
    expect(Buffer.from(value, 'utf8').toString('utf8')).toBe(value);
  });
});
