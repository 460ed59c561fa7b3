import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTR, EMITTED_ATTRIBUTE_KEYS, STOP_REASONS, TOOL_KIND_NAMES } from '../../src/spans/conventions.js';
import { OWN_ATTRIBUTE_VALUES } from '../../src/spans/own-attribute-values.js';

const doc = readFileSync(join(import.meta.dirname, '../../docs/spans.md'), 'utf8');

/** The backquoted words in the value column of the Attributes rows whose attribute column is just `key`. */
function documentedWords(key: string): string[] {
  const rows = doc.split('\n').filter((line) => line.split('|')[2]?.trim() === `\`${key}\``);
  return rows.flatMap((row) => [...(row.split('|')[3] ?? '').matchAll(/`([a-z_]+)`/g)].map((match) => match[1]));
}

// The spans check and `spans query` refuse agentcheck.* keys agentcheck never writes, and point
// users to docs/spans.md for the list: a key written but not listed there cannot be found.
describe('docs/spans.md', () => {
  it('lists every attribute key agentcheck writes', () => {
    expect([...EMITTED_ATTRIBUTE_KEYS].filter((key) => !doc.includes(`\`${key}\``))).toEqual([]);
  });

  // Span queries refuse a word not in OWN_ATTRIBUTE_VALUES: a documented word must never be refused.
  it('lists only words its typed attributes take, and every tool kind and stop reason', () => {
    let rows = 0;
    for (const [key, rule] of Object.entries(OWN_ATTRIBUTE_VALUES)) {
      if (!('words' in rule)) continue;
      const words = documentedWords(key);
      if (words.length) rows++;
      expect(
        words.filter((word) => !rule.words.includes(word)),
        key,
      ).toEqual([]);
    }
    // plan.branch shares its row with plan.items; the others have rows of their own.
    expect(rows).toBe(Object.values(OWN_ATTRIBUTE_VALUES).filter((rule) => 'words' in rule).length - 1);
    expect(documentedWords(ATTR.toolKind)).toEqual([...TOOL_KIND_NAMES]);
    expect(documentedWords(ATTR.stopReason)).toEqual([...STOP_REASONS]);
  });
});
