import { describe, expect, it } from 'vitest';
import { hashValue } from '../../../src/config/canonical-json.js';
import { chainDeltaHash, deltaHashForm, deltasHash } from '../../../src/engine/revision/delta-hash.js';

// docs/verdicts.md (resolved): `set` entries that may write the same place hash in their written
// order; other entries hash as the delta always did, in any order.

const reversed = (set: Record<string, unknown>) => Object.fromEntries(Object.entries(set).reverse());

describe('the delta hash and the order of set entries', () => {
  it.each([
    ['a key and a path under it', { agent: { max_turns: 2 }, 'agent.max_turns': 5 }],
    ['a selector and a dotted index into one list', { 'agent.tools[name=a].x': 1, 'agent.tools.0.y': 2 }],
    ['two selectors into one list', { 'agent.tools[name=echo]': { description: 'A' }, 'agent.tools[1]': { description: 'B' } }],
    ['a list and an item of it', { 'agent.tools': [], 'agent.tools[0].description': 'B' }],
    ['a path that cannot be read, which may write anywhere', { 'agent..x': 1, flow: null }],
  ])('keeps the written order of %s', (_, set) => {
    expect(deltaHashForm({ set })).toEqual({ set: Object.entries(set) });
    expect(chainDeltaHash(null, { set })).not.toBe(chainDeltaHash(null, { set: reversed(set) }));
    expect(deltasHash([{ set: { flow: null } }, { set }])).not.toBe(deltasHash([{ set: { flow: null } }, { set: reversed(set) }]));
  });

  it.each([
    ['two paths beside each other', { 'agent.max_turns': 3, 'agent.tools[name=echo]': { description: 'A' } }],
    ['two top-level keys', { agent: { name: 'x' }, flow: null }],
    ['paths whose plain keys part before their selectors', { 'agent.tools[0]': {}, 'agent.mcps[0]': {} }],
  ])('hashes %s as it always did, in either order', (_, set) => {
    const delta = { set, remove: ['agent.skills.0'] };
    expect(deltaHashForm(delta)).toBe(delta);
    expect(chainDeltaHash(null, delta)).toBe(hashValue(delta));
    expect(chainDeltaHash(null, { ...delta, set: reversed(set) })).toBe(hashValue(delta));
  });

  it('gives the hash it gave before order counted, chained as before', () => {
    const delta = { set: { 'agent.name': 'Renamed bot', 'agent.tools[name=lookup]': { description: 'Find.' } } };
    // The delta_hash test-run printed for this delta before (test/e2e/test-run-inputs.test.ts).
    expect(deltasHash([delta])).toBe('aecd23eeaf97e896');
    expect(deltasHash([delta, { set: { flow: null } }])).toBe(hashValue(['aecd23eeaf97e896', hashValue({ set: { flow: null } })]));
  });

  it('takes a delta of no known shape as it is, without throwing', () => {
    for (const delta of [null, 'x', [], { set: 'x' }, { set: [['agent', 1]] }]) expect(deltaHashForm(delta)).toBe(delta);
  });
});
