import { describe, expect, it } from 'vitest';
import { canonicalJson, hashValue } from '../../src/config/canonical-json.js';
import { revisionFromValue } from '../../src/engine/revision/load-build.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ f: 1, e: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"e":2,"f":1}]},"b":1}');
  });

  it('keeps a key named __proto__ (as JSON.parse and YAML give it) as a key, so values that differ in it never hash alike', () => {
    const value = JSON.parse('{"z": 1, "__proto__": {"b": 2, "a": 1}}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"a":1,"b":2},"z":1}');
    expect(hashValue(value)).not.toBe(hashValue({ z: 1 }));
    expect(hashValue(JSON.parse('{"__proto__": "x"}'))).not.toBe(hashValue({}));
  });

  it('gives builds that differ only in a __proto__ key of a tool result different hashes', () => {
    const tool = (returns: unknown) => ({ id: 'b', agent: { name: 'B', tools: [{ name: 't', description: 'T.', returns }] } });
    const plain = revisionFromValue(tool({ ok: true }));
    const withKey = revisionFromValue(tool(JSON.parse('{"ok": true, "__proto__": {"admin": true}}')));
    expect(withKey.hash).not.toBe(plain.hash);
  });
});
