import { describe, expect, it } from 'vitest';
import { hashValue } from '../../../src/config/canonical-json.js';
import { join } from 'node:path';
import { applyDelta } from '../../../src/engine/revision/delta.js';
import { chainDeltaHash, deltaHashForm, deltasHash } from '../../../src/engine/revision/delta-hash.js';
import { loadAgentBuild } from '../../../src/engine/revision/load-build.js';

// docs/verdicts.md (resolved): `set` entries that may write the same place hash in their written
// order; other entries, and `remove` entries, hash the same in any order.

const agentFile = join(import.meta.dirname, '../../../fixtures/agents/support-bot.yaml');

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

  it('hashes entries that cannot write one place alike however they are interleaved among those that can', () => {
    // Two pairs that may write one place (agent.tools, agent.llm), neither pair reordered.
    const written = {
      'agent.tools[name=lookup_order].description': 'A',
      'agent.llm': { model: 'm2' },
      'agent.tools[2].description': 'B',
      'agent.llm.model': 'm3',
    };
    const interleaved = {
      'agent.llm': { model: 'm2' },
      'agent.tools[name=lookup_order].description': 'A',
      'agent.llm.model': 'm3',
      'agent.tools[2].description': 'B',
    };
    // One pair reversed: another build, another hash.
    const pairReversed = {
      'agent.llm.model': 'm3',
      'agent.tools[name=lookup_order].description': 'A',
      'agent.llm': { model: 'm2' },
      'agent.tools[2].description': 'B',
    };
    const revision = loadAgentBuild(agentFile);
    const [a, b, c] = [written, interleaved, pairReversed].map((set) => applyDelta(revision, { set }));
    expect(a.build).toEqual(b.build);
    expect(a.deltaHash).toBe(b.deltaHash);
    expect(c.build.agent?.llm?.model).toBe('m2');
    expect(c.deltaHash).not.toBe(a.deltaHash);
  });

  it('lets two entries pass each other when each keeps its order to an entry both may overwrite', () => {
    // `agent` may write where either path writes; the two paths cannot write one place.
    const whole = { agent: { max_turns: 3 } };
    const one = { 'agent.tools[name=lookup_order].description': 'A', 'agent.llm.model': 'm2', ...whole };
    const other = { 'agent.llm.model': 'm2', 'agent.tools[name=lookup_order].description': 'A', ...whole };
    const revision = loadAgentBuild(agentFile);
    expect(applyDelta(revision, { set: one }).build).toEqual(applyDelta(revision, { set: other }).build);
    expect(chainDeltaHash(null, { set: one })).toBe(chainDeltaHash(null, { set: other }));
    expect(chainDeltaHash(null, { set: one })).not.toBe(chainDeltaHash(null, { set: reversed(one) }));
  });
});

describe('the delta hash and the order of remove entries', () => {
  it('hashes removes alike in any order, as they make the same build', () => {
    // Each names a place in the build `set` left: agent.tools.2 is the third tool whichever goes first.
    const revision = loadAgentBuild(agentFile);
    const forward = applyDelta(revision, { remove: ['agent.tools.0', 'agent.tools.2'] });
    const backward = applyDelta(revision, { remove: ['agent.tools.2', 'agent.tools.0'] });
    expect(backward.build).toEqual(forward.build);
    expect(forward.build.agent?.tools?.map((tool) => tool.name)).toEqual(['create_refund', 'send_email']);
    expect(backward.deltaHash).toBe(forward.deltaHash);
    const mixed = { set: { agent: { max_turns: 3 } }, remove: ['agent.tools[name=send_email]', 'agent.tools.0', 'agent.max_turns'] };
    expect(chainDeltaHash(null, mixed)).toBe(chainDeltaHash(null, { ...mixed, remove: [...mixed.remove].reverse() }));
  });

  it('gives the hash it gave before removes were sorted to a delta whose removes are sorted, or whose set entries cannot meet', () => {
    // Computed by the code before this normalization, for deltas already in its form.
    expect(deltasHash([{ set: { 'agent.max_turns': 3, 'agent.tools[name=lookup]': { description: 'Find.' } }, remove: ['agent.skills.0'] }])).toBe(
      '7a4a6e96963e4790',
    );
    expect(deltasHash([{ set: { 'agent.name': 'Renamed bot' }, remove: ['agent.tools.0', 'agent.tools[name=lookup]'] }])).toBe('8d4414db49e6fb72');
    expect(deltasHash([{ remove: ['agent.tools.0', 'agent.tools.2'] }])).toBe('79cb7ad58c6401ab');
    expect(deltasHash([{ remove: ['agent.tools.2', 'agent.tools.0'] }])).toBe('79cb7ad58c6401ab');
    expect(deltasHash([{ set: { agent: { max_turns: 2 }, 'agent.max_turns': 5, flow: null } }])).toBe('26d215b673d1f412');
  });

  it('leaves a remove it cannot read as it is', () => {
    for (const delta of [{ remove: 'agent' }, { remove: ['b', 1, 'a'] }]) expect(deltaHashForm(delta)).toBe(delta);
  });
});
