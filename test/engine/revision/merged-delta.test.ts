import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDelta, type DeltaRevision } from '../../../src/engine/revision/delta.js';
import { loadAgentBuild, revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { mergedDelta } from '../../../src/engine/revision/merged-delta.js';
import type { Revision } from '../../../src/engine/revision/types.js';

const agentFile = join(import.meta.dirname, '../../../fixtures/agents/support-bot.yaml');

const EXTERNAL = {
  id: 'weather',
  external: { http: { url: 'http://127.0.0.1:9/invoke' }, config: { units: 'celsius', lang: 'en', extras: { wind: true } } },
};

/** The deltas applied in turn to `base`; the build they made, and their merged delta applied to `base` on its own. */
function mergeAndApply(base: Revision, deltas: unknown[]) {
  const ran = deltas.reduce<DeltaRevision>((revision, delta) => applyDelta(revision, delta), { ...base, deltaHash: null });
  const merged = mergedDelta(ran.base ?? base.build, ran.build, ran.deltas ?? []);
  return { ran: ran.build, merged, applied: merged && applyDelta(base, merged).build };
}

describe('the deltas merged as one (what an http engine is sent)', () => {
  it('keeps a value a later delta sets again after an earlier one removed it: applied to the base, it gives the build that ran', () => {
    const base = revisionFromValue(EXTERNAL);
    const { ran, merged, applied } = mergeAndApply(base, [{ remove: ['external.config.units'] }, { set: { external: { config: { units: 'kelvin' } } } }]);
    expect(ran.external?.config).toEqual({ units: 'kelvin', lang: 'en', extras: { wind: true } });
    // Before, the removes were joined: {set: {...units: kelvin}, remove: [external.config.units]}, which removes units.
    expect(merged).toEqual({ set: { external: { config: { units: 'kelvin' } } } });
    expect(applied).toEqual(ran);
  });

  it('removes a value a later delta removes after an earlier one set it', () => {
    const base = revisionFromValue(EXTERNAL);
    const { ran, merged, applied } = mergeAndApply(base, [{ set: { external: { config: { units: 'kelvin' } } } }, { remove: ['external.config.units'] }]);
    expect(ran.external?.config).toEqual({ lang: 'en', extras: { wind: true } });
    expect(merged).toEqual({ remove: ['external.config.units'] });
    expect(applied).toEqual(ran);
  });

  it('removes what the base held under an object one delta removed and a later one set again, its new value set', () => {
    const base = revisionFromValue(EXTERNAL);
    const { ran, merged, applied } = mergeAndApply(base, [
      { remove: ['external.config'] },
      { set: { external: { config: { units: 'kelvin', extras: { rain: 1 } } } } },
    ]);
    expect(ran.external?.config).toEqual({ units: 'kelvin', extras: { rain: 1 } });
    expect(merged).toEqual({
      set: { external: { config: { units: 'kelvin', extras: { rain: 1 } } } },
      remove: ['external.config.extras.wind', 'external.config.lang'],
    });
    expect(applied).toEqual(ran);
  });

  it('still sends a value a delta set to what the base already had (an engine may apply it to its own defaults)', () => {
    const base = revisionFromValue(EXTERNAL);
    const { ran, merged, applied } = mergeAndApply(base, [{ set: { external: { config: { units: 'celsius', lang: 'fr' } } } }]);
    expect(merged).toEqual({ set: { external: { config: { units: 'celsius', lang: 'fr' } } } });
    expect(applied).toEqual(ran);
  });

  it('gives the build that ran for path keys, list selectors and removed list items, in either order', () => {
    const base = loadAgentBuild(agentFile);
    const tool = base.build.agent?.tools?.[0]?.name as string;
    const orders: unknown[][] = [
      [{ remove: [`agent.tools[name=${tool}]`] }, { set: { 'agent.max_turns': 3, agent: { tools: base.build.agent?.tools } } }],
      [{ set: { [`agent.tools[name=${tool}].description`]: 'Changed.', 'agent.max_turns': 3 } }, { remove: ['agent.max_turns'] }],
      [{ remove: ['agent.max_turns'] }, { set: { agent: { max_turns: 2 } } }, { set: { agent: { llm: { parameters: { temperature: 0.1 } } } } }],
    ];
    for (const deltas of orders) {
      const { ran, merged, applied } = mergeAndApply(base, deltas);
      expect(applied, JSON.stringify({ deltas, merged })).toEqual(ran);
    }
  });

  it('is null when no delta was applied', () => {
    const base = revisionFromValue(EXTERNAL);
    expect(mergedDelta(base.build, base.build, [])).toBeNull();
  });

  it('refuses, naming it, to remove a key no remove path can name, rather than send a delta of another effect', () => {
    const base = revisionFromValue({ ...EXTERNAL, external: { ...EXTERNAL.external, config: { 'a.b': 1, units: 'celsius' } } });
    expect(() => mergeAndApply(base, [{ remove: ['external.config'] }, { set: { external: { config: { units: 'kelvin' } } } }])).toThrow(
      'the deltas applied cannot be sent as one merged delta: they remove external.config["a.b"]',
    );
  });
});
