import { describe, expect, it } from 'vitest';
import { utf8Text } from '../../src/config/utf8-text.js';
import { SourceDocument } from '../../src/config/source.js';
import { tempDir } from '../helpers/temp-dir.js';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

describe('reading files as UTF-8', () => {
  it('refuses bytes that are not UTF-8, at the line and column of the first', () => {
    expect(() => utf8Text(Buffer.from('id,message\n1,caf\xe9\n', 'latin1'), 'orders.csv')).toThrow(
      'orders.csv:2:6: is not valid UTF-8 (byte 0xE9); save the file as UTF-8 (a Latin-1 or Windows-1252 export would change its text)',
    );
    // Overlong forms and surrogates are no UTF-8 either.
    expect(() => utf8Text(Buffer.from([0x61, 0xc0, 0xaf]), 'a')).toThrow(/a:1:2: is not valid UTF-8 \(byte 0xC0\)/);
    expect(() => utf8Text(Buffer.from([0xed, 0xa0, 0x80]), 'a')).toThrow(/byte 0xED/);
  });

  it('keeps valid text, a replacement character written in the file included', () => {
    expect(utf8Text(Buffer.from('café \uFFFD 😀', 'utf8'), 'a')).toBe('café \uFFFD 😀');
  });

  it('is how agentcheck files are read', () => {
    const dir = tempDir({});
    writeFileSync(join(dir, 'a.yaml'), Buffer.from('name: caf\xe9\n', 'latin1'));
    expect(() => SourceDocument.read(join(dir, 'a.yaml'))).toThrow(/a\.yaml:1:10: is not valid UTF-8/);
  });
});
