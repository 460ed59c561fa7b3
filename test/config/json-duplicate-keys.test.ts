import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { duplicateJsonKeys } from '../../src/config/json-duplicate-keys.js';
import { SourceDocument } from '../../src/config/source.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('strict JSON: duplicate keys', () => {
  it('finds a key given twice in one object, at any depth, and nothing else', () => {
    expect(duplicateJsonKeys('{"a": 1, "b": {"c": 2, "c": 3}}')).toEqual([{ key: 'c', offset: 23, path: ['b', 'c'] }]);
    // Each repeat at its own path, through lists too (as a YAML key given twice is).
    expect(duplicateJsonKeys('{"tools": [{"n": 1}, {"n": 1, "d": [], "n": 2}], "n": 0, "n": 1}').map((d) => d.path)).toEqual([['tools', 1, 'n'], ['n']]);
    // Every repeat, not the first only.
    expect(duplicateJsonKeys('{"a": 1, "a": 2, "b": {"c": 2, "c": 3}}').map((d) => d.key)).toEqual(['a', 'c']);
    expect(duplicateJsonKeys('{"a": 1, "b": [{"a": 1}, {"a": 2}], "c": "a"}')).toEqual([]);
    expect(duplicateJsonKeys('{"x\\"y": 1, "x\\"y": 2}')).toMatchObject([{ key: 'x"y' }]);
    expect(duplicateJsonKeys('["a", "a", {"k": "a", "v": "a"}]')).toEqual([]);
    expect(duplicateJsonKeys('{"a": "{\\"a\\": 1}", "b": 2}')).toEqual([]);
  });

  it('refuses a .json file with a duplicate key, located at the second one', () => {
    const dir = tempDir({});
    const file = join(dir, 'x.scenario.json');
    writeFileSync(file, '{\n  "name": "x",\n  "agent": "a.yaml",\n  "agent": "b.yaml"\n}\n');
    let caught: unknown;
    try {
      SourceDocument.read(file);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).line).toBe(4);
    expect((caught as Error).message).toBe(
      `${file}:4:3 at agent: is not valid strict JSON: the key "agent" appears twice in one object (JSON.parse would keep the last silently); remove one`,
    );
  });
});
