import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMITTED_ATTRIBUTE_KEYS } from '../../src/spans/conventions.js';

// The spans check and `spans query` refuse agentcheck.* keys agentcheck never writes, and point
// users to docs/spans.md for the list: a key written but not listed there cannot be found.
describe('docs/spans.md', () => {
  it('lists every attribute key agentcheck writes', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/spans.md'), 'utf8');
    expect([...EMITTED_ATTRIBUTE_KEYS].filter((key) => !doc.includes(`\`${key}\``))).toEqual([]);
  });
});
