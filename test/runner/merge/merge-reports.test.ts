import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { mergeReports } from '../../../src/runner/merge/merge-reports.js';
import type { Report } from '../../../src/runner/report/report.js';
import { suiteFingerprint, suiteIdentity } from '../../../src/runner/report/suite-fingerprint.js';
import { shardReport } from '../reporters/fixture-report.js';

const FACTS = {
  paths: ['scenarios'],
  config: '/repo/agentcheck.config.yaml',
  variants: ['base', 'lean'],
  variantDeltas: { lean: { set: { agent: { instructions: 'Be brief.' } } } },
  repeat: 2,
  grep: null,
  harness: 'agentcheck/0.1.0',
  cwd: '/repo',
};

function shard(index: number, total: number, names: string[], started = '2025-01-02T03:04:05.000Z', duration = 1000): Report {
  return shardReport(index, total, names, { started_at: started, duration_ms: duration });
}

describe('suiteFingerprint', () => {
  it('is the same for equivalent spellings of one selection', () => {
    const a = suiteFingerprint(FACTS);
    expect(suiteFingerprint({ ...FACTS, paths: ['./scenarios/'], config: 'agentcheck.config.yaml', variants: ['lean', 'base'] })).toBe(a);
    expect(suiteFingerprint({ ...FACTS, cwd: '/elsewhere', config: '/elsewhere/agentcheck.config.yaml' })).toBe(a);
    expect(suiteFingerprint({ ...FACTS, tags: ['b', 'a', 'a'] })).toBe(suiteFingerprint({ ...FACTS, tags: ['a', 'b'] }));
    expect(suiteIdentity({ ...FACTS, tags: ['b', 'a'] })).toMatchObject({ paths: ['scenarios'], config: 'agentcheck.config.yaml', tags: ['a', 'b'] });
  });

  it('changes with anything that changes the set of rows', () => {
    const a = suiteFingerprint(FACTS);
    for (const change of [
      { repeat: 3 },
      { grep: 'refund' },
      { variants: ['base'] },
      { tags: ['smoke'] },
      { paths: ['other'] },
      { overlay: ['skills/x'] },
      { harness: 'agentcheck/0.2.0' },
      // Same names, another design: a variant's delta is part of the selection.
      { variantDeltas: { lean: { remove: ['agent.tools[name=t1]'] } } },
    ]) {
      expect(suiteFingerprint({ ...FACTS, ...change }), JSON.stringify(change)).not.toBe(a);
    }
  });
});

describe('suiteFingerprint of variants whose set entries come in another order', () => {
  const lean = (set: Record<string, unknown>) => suiteFingerprint({ ...FACTS, variantDeltas: { lean: { set } } });

  it('is the one it always was when no two entries can write the same place, in either order', () => {
    // The fingerprints agentcheck wrote before order counted: earlier shards still merge with new ones.
    expect(suiteFingerprint(FACTS)).toBe('c257384cbd712be4');
    expect(lean({ 'agent.tools[name=t1]': { description: 'x' }, 'agent.instructions': 'Be brief.' })).toBe('3e2a5e990232e38b');
    expect(lean({ 'agent.instructions': 'Be brief.', 'agent.tools[name=t1]': { description: 'x' } })).toBe('3e2a5e990232e38b');
  });

  it('differs when entries that can write the same place are reordered: the later one wins', () => {
    expect(lean({ agent: { instructions: 'A' }, 'agent.instructions': 'B' })).not.toBe(lean({ 'agent.instructions': 'B', agent: { instructions: 'A' } }));
  });
});

describe('mergeReports', () => {
  it('orders rows by id, variant and repeat and spans the wall time of all shards', () => {
    const merged = mergeReports([
      { file: 'b.json', report: shard(2, 2, ['zeta', 'alpha'], '2025-01-02T03:04:06.000Z', 3000) },
      { file: 'a.json', report: shard(1, 2, ['mid'], '2025-01-02T03:04:05.000Z', 1000) },
    ]);
    expect(merged.scenarios.map((r) => r.name)).toEqual(['alpha', 'mid', 'zeta']);
    expect(merged.started_at).toBe('2025-01-02T03:04:05.000Z');
    expect(merged.duration_ms).toBe(4000);
    expect(merged.suite.shard).toBeNull();
    expect(merged.summary.total).toBe(3);
    expect(merged.stats?.variants.base.runs).toBe(3);
    expect(merged.merged).toEqual({
      inputs: [
        { file: 'b.json', shard: { index: 2, total: 2 }, started_at: '2025-01-02T03:04:06.000Z', rows: 2 },
        { file: 'a.json', shard: { index: 1, total: 2 }, started_at: '2025-01-02T03:04:05.000Z', rows: 1 },
      ],
      missing_shards: [],
    });
  });

  it("orders each scenario's variants as the suite lists them, as an unsharded run does", () => {
    const one = shard(1, 2, ['x']);
    const two = shard(2, 2, ['y']);
    for (const report of [one, two]) {
      report.suite.variants = ['base', 'zeta', 'alpha'];
      report.scenarios = report.scenarios.flatMap((row) => ['alpha', 'base', 'zeta'].map((variant) => ({ ...row, variant })));
      report.summary = { ...report.summary, total: report.scenarios.length, passed: report.scenarios.length };
    }
    const merged = mergeReports([
      { file: 'a.json', report: one },
      { file: 'b.json', report: two },
    ]);
    expect(merged.scenarios.map((row) => `${row.name} ${row.variant}`)).toEqual(['x base', 'x zeta', 'x alpha', 'y base', 'y zeta', 'y alpha']);
  });

  it('lists missing shards and refuses overlaps with typed errors', () => {
    expect(mergeReports([{ file: 'a.json', report: shard(1, 3, ['x']) }]).merged?.missing_shards).toEqual([2, 3]);
    const refuse = (inputs: Array<{ file: string; report: Report }>) => {
      try {
        mergeReports(inputs);
      } catch (error) {
        return error as ConfigError;
      }
      throw new Error('expected a refusal');
    };
    expect(
      refuse([
        { file: 'a.json', report: shard(1, 2, ['x']) },
        { file: 'b.json', report: shard(2, 2, ['x']) },
      ]).code,
    ).toBe('MERGE_OVERLAP');
    const other = shard(2, 2, ['y']);
    other.suite.fingerprint = 'beef';
    other.suite.grep = 'y';
    const different = refuse([
      { file: 'a.json', report: shard(1, 2, ['x']) },
      { file: 'b.json', report: other },
    ]);
    expect(different).toBeInstanceOf(ConfigError);
    expect(different.code).toBe('MERGE_DIFFERENT_SUITES');
    // This file's values first, the fingerprints as the fields.
    expect(different.message).toContain('not the same suite as a.json (this file vs a.json: suite.fingerprint beef vs f00d; grep: "y" vs null)');
    // A shard of a --tag run beside one without: the message names the tags, not only a hash.
    const tagged = shard(2, 2, ['y']);
    tagged.suite.fingerprint = 'cafe';
    tagged.suite.tags = ['smoke'];
    const byTag = refuse([
      { file: 'a.json', report: shard(1, 2, ['x']) },
      { file: 'b.json', report: tagged },
    ]);
    expect(byTag.message).toContain('tags: ["smoke"] vs []');
    // Another checkout's path to a config of the same name is no cause when something else is.
    const elsewhere = shard(2, 2, ['y']);
    elsewhere.suite.fingerprint = 'd00d';
    elsewhere.suite.grep = 'y';
    elsewhere.suite.config = '/other-checkout/agentcheck.config.yaml';
    const reference = shard(1, 2, ['x']);
    reference.suite.config = '/repo/agentcheck.config.yaml';
    const moved = refuse([
      { file: 'a.json', report: reference },
      { file: 'b.json', report: elsewhere },
    ]);
    expect(moved.message).toContain('suite.fingerprint d00d vs f00d; grep: "y" vs null)');
    // Alone, it is said, with what the fingerprint takes; a config of another name always is.
    elsewhere.suite.grep = null;
    expect(
      refuse([
        { file: 'a.json', report: reference },
        { file: 'b.json', report: elsewhere },
      ]).message,
    ).toContain(
      'config: "/other-checkout/agentcheck.config.yaml" vs "/repo/agentcheck.config.yaml" (the fingerprint takes it relative to the folder each ran in)',
    );
    elsewhere.suite.config = '/repo/lean.config.yaml';
    elsewhere.suite.grep = 'y';
    expect(
      refuse([
        { file: 'a.json', report: reference },
        { file: 'b.json', report: elsewhere },
      ]).message,
    ).toContain('config: "/repo/lean.config.yaml" vs "/repo/agentcheck.config.yaml"; grep: "y" vs null');
    // Nothing recorded differs (the same config, run from another folder): the message says what else can.
    const fromElsewhere = shard(2, 2, ['y']);
    fromElsewhere.suite.fingerprint = 'feed';
    expect(
      refuse([
        { file: 'a.json', report: shard(1, 2, ['x']) },
        { file: 'b.json', report: fromElsewhere },
      ]).message,
    ).toContain(
      'suite.fingerprint feed vs f00d; no recorded field differs, so the shards differ in what the report does not record: the folder each ran in (the fingerprint takes the config and --overlay folders relative to it; run every shard from the same folder) or the --overlay folders)',
    );
    expect(refuse([]).message).toContain('at least one report.json');
  });
});
