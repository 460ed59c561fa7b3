import { describe, expect, it } from 'vitest';
import { spanResultJson } from '../../../src/engine/tools/result-text.js';

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

  it('cuts a long string result inside its quotes, never in the middle of an escape', () => {
    const json = spanResultJson('\u0000'.repeat(70_000), 100_000);
    expect(json.length).toBeLessThanOrEqual(100_000);
    const back = JSON.parse(json) as string;
    expect(back.replace(/\[truncated \d+ characters\]$/, '')).toBe('\u0000'.repeat(back.indexOf('[')));
  });

  it('turns a result long without long strings into its cut JSON text, as one valid JSON string', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => i);
    const json = spanResultJson(many, 1_000);
    expect(json.length).toBeLessThanOrEqual(1_000);
    expect(JSON.parse(json)).toMatch(/^\[0,1,2,.*\[truncated \d+ characters\]$/);
  });
});
