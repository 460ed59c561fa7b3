import { basename, isAbsolute, relative, sep } from 'node:path';
import { canonicalJson, hashValue } from '../../config/canonical-json.js';
import type { Report } from './report.js';
import { deltaHashForm } from '../../engine/revision/delta-hash.js';

/**
 * What makes two runs "the same suite" for `agentcheck merge`: the selection that decides which
 * scenario x variant x repeat rows exist, and what each variant changes (a variant's name alone
 * would let two designs merge under it). The shard (which part of them ran) is left out, and so is
 * how they ran (concurrency, timeouts, cassettes), which does not change the set of rows.
 */
export interface SuiteIdentity {
  /** `agentcheck run` paths as given, `/`-separated, without `./` and trailing slashes. */
  paths: string[];
  /** The suite config file relative to the folder agentcheck ran in (absolute paths differ across CI machines). */
  config: string | null;
  /** Variants run, sorted. */
  variants: string[];
  /**
   * The delta of each variant other than `base` (suite.variant_deltas) as its delta hash takes it
   * (deltaHashForm): `set` entries that may write the same place keep their written order, other
   * entries and `remove` entries may be in any order.
   */
  variant_deltas: Record<string, unknown>;
  repeat: number;
  grep: string | null;
  /** `--tag` filter, sorted; not otherwise recorded in the report. */
  tags: string[];
  /** `--overlay` skill folders relative to the run folder; they change what runs. */
  overlay: string[];
  harness: string;
  /** SuitePlan.contentHash: what the selected scenarios contain, so two suites run with the same flags still differ. */
  content: string | null;
}

/** The selection a run was started with, as `agentcheck run` knows it. */
export interface SuiteSelectionFacts {
  paths: readonly string[];
  config: string | null;
  variants: readonly string[];
  /** The delta of each variant run other than `base`. */
  variantDeltas?: Readonly<Record<string, unknown>>;
  repeat: number;
  grep?: string | null;
  tags?: readonly string[];
  overlay?: readonly string[];
  harness: string;
  /** The folder agentcheck ran in. */
  cwd: string;
  content?: string | null;
}

/** The normalized identity of a run's selection. */
export function suiteIdentity(facts: SuiteSelectionFacts): SuiteIdentity {
  return {
    paths: facts.paths.map((path) => normalizePath(path, facts.cwd)),
    config: facts.config === null ? null : normalizePath(facts.config, facts.cwd),
    variants: [...facts.variants].sort(),
    variant_deltas: Object.fromEntries(Object.entries(facts.variantDeltas ?? {}).map(([name, delta]) => [name, deltaHashForm(delta)])),
    repeat: facts.repeat,
    grep: facts.grep ?? null,
    tags: [...new Set(facts.tags ?? [])].sort(),
    overlay: (facts.overlay ?? []).map((path) => normalizePath(path, facts.cwd)),
    harness: facts.harness,
    content: facts.content ?? null,
  };
}

/** `suite.fingerprint`: 16 hex digits of sha256 over the canonical JSON of the SuiteIdentity. */
export function suiteFingerprint(facts: SuiteSelectionFacts): string {
  return hashValue(suiteIdentity(facts));
}

/**
 * The fingerprint of a report: the recorded one, or for reports written before fingerprints
 * existed one computed from the recorded suite fields (config as recorded, no tags or overlay).
 */
export function reportFingerprint(report: Pick<Report, 'suite'>): string {
  const { suite } = report;
  if (typeof suite.fingerprint === 'string') return suite.fingerprint;
  return hashValue({
    legacy: true,
    paths: suite.paths,
    config: suite.config,
    variants: [...suite.variants].sort(),
    repeat: suite.repeat,
    grep: suite.grep,
    harness: suite.harness,
  });
}

/** The recorded suite fields in which two reports differ, as `field: a vs b` clauses (a variant's delta as `variant "lean" changes: a vs b`). */
export function suiteDifferences(a: Pick<Report, 'suite'>, b: Pick<Report, 'suite'>): string[] {
  const fields = ['paths', 'variants', 'repeat', 'grep', 'tags', 'harness', 'content'] as const;
  const out: string[] = [];
  for (const field of fields) {
    // Tags are recorded only when given: absent and none are the same selection.
    const value = (report: Pick<Report, 'suite'>) =>
      field === 'variants' ? [...report.suite.variants].sort() : field === 'tags' ? (report.suite.tags ?? []) : report.suite[field];
    const left = JSON.stringify(value(a));
    const right = JSON.stringify(value(b));
    if (left === right) continue;
    out.push(field === 'content' ? `the scenarios differ (content hash ${left} vs ${right})` : `${field}: ${left} vs ${right}`);
  }
  // Same-named variants that change different things: each named, with both deltas.
  const deltasA = a.suite.variant_deltas ?? {};
  const deltasB = b.suite.variant_deltas ?? {};
  for (const name of a.suite.variants) {
    if (!b.suite.variants.includes(name) || !Object.hasOwn(deltasA, name) || !Object.hasOwn(deltasB, name)) continue;
    const left = canonicalJson(deltaHashForm(deltasA[name]));
    const right = canonicalJson(deltaHashForm(deltasB[name]));
    if (left !== right) out.push(`variant ${JSON.stringify(name)} changes: ${left} vs ${right}`);
  }
  const config = configDifference(a.suite.config, b.suite.config, out.length > 0);
  if (config) out.splice(out[0]?.startsWith('paths:') ? 1 : 0, 0, config);
  return out;
}

/**
 * The config clause: report.json records the config's absolute path while the fingerprint takes
 * it relative to the folder agentcheck ran in, so two checkouts' paths to a config of the same name
 * are said only when nothing else explains the difference (they may be its cause, or not).
 */
function configDifference(a: string | null, b: string | null, explained: boolean): string | undefined {
  if (a === b) return undefined;
  const clause = `config: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  if (a === null || b === null || basename(a) !== basename(b)) return clause;
  return explained ? undefined : `${clause} (the fingerprint takes it relative to the folder each ran in)`;
}

function normalizePath(path: string, cwd: string): string {
  const local = isAbsolute(path) ? relative(cwd, path) || '.' : path;
  const posix = local
    .split(sep)
    .join('/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  return posix === '' ? '.' : posix;
}
