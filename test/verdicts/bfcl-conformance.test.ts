/**
 * BFCL conformance: every converted entry's ground-truth call passes its checks, and each kind
 * of wrong answer fails with a reason naming the argument or function. Evidence comes from
 * synthetic spans (span-builder.ts) that follow docs/spans.md.
 * BFCL_WRITE=1 regenerates fixtures/bfcl from fixtures/bfcl/data instead of comparing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BFCL_CATEGORIES, type ConvertedBfclEntry } from '../../scripts/bfcl/convert-entry.js';
import { buildBfclFixtures, writeBfclFixtures } from '../../scripts/bfcl-convert.js';
import { bfclDataFiles, convertBfclCategory } from '../../scripts/bfcl/render-fixtures.js';
import { memoryLocator } from '../../src/config/assert-format.js';
import { compileUserSchema } from '../../src/config/json-schema.js';
import { validateBuild } from '../../src/engine/revision/validate-build.js';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { runChecks, validateChecks, type CheckSpec } from '../../src/verdicts/run-checks.js';
import { addUnexpected, changeArgument, dropRequired, groundTruthCalls, wrongFunction, type ModelCall, type Mutator } from './bfcl-mutations.js';
import { RunBuilder } from './span-builder.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'fixtures', 'bfcl');
const DATA = join(FIXTURES, 'data');
const MUTATIONS: Record<string, Mutator> = {
  'changed argument': changeArgument,
  'dropped required argument': dropRequired,
  'unexpected argument': addUnexpected,
  'wrong function': wrongFunction,
};

function load(category: (typeof BFCL_CATEGORIES)[number]): ConvertedBfclEntry[] {
  const files = bfclDataFiles(category);
  return convertBfclCategory({
    category,
    questions: readFileSync(join(DATA, files.questions), 'utf8'),
    answers: readFileSync(join(DATA, files.answers), 'utf8'),
  });
}

/** Scores the checks of an entry against a run in which the model made `calls` in one response. */
function score(entry: ConvertedBfclEntry, calls: ModelCall[]) {
  const run = new RunBuilder(`BFCL ${entry.id}`, entry.id);
  run.modelCalls(calls.map((call) => ({ name: call.name, args: call.args })));
  run.text();
  const checks = (entry.scenario.expect as { checks: CheckSpec[] }).checks;
  return runChecks(checks, buildEvidence({ spans: run.spans({ output: 'done' }) }));
}

describe('BFCL fixtures', () => {
  it('are in sync with the converter (BFCL_WRITE=1 regenerates them)', () => {
    if (process.env.BFCL_WRITE) writeBfclFixtures(DATA, FIXTURES);
    const files = buildBfclFixtures(DATA);
    expect(files.size).toBe(504);
    const stale = [...files].filter(([path, text]) => !existsSync(join(FIXTURES, path)) || readFileSync(join(FIXTURES, path), 'utf8') !== text);
    expect(stale.map(([path]) => path)).toEqual([]);
    expect(existsSync(join(FIXTURES, 'LICENSE'))).toBe(true);
    expect(readFileSync(join(FIXTURES, 'README.md'), 'utf8')).toContain('Apache License 2.0');
  });
});

describe.each(BFCL_CATEGORIES)('BFCL %s', (category) => {
  const entries = load(category);

  it('converts to valid agent builds, scenarios and checks', () => {
    let schemaMisfits = 0;
    const written = parse(readFileSync(join(FIXTURES, `${category}.scenarios.yaml`), 'utf8')) as { scenarios: Array<{ name: string }> };
    const byName = new Map(written.scenarios.map((scenario) => [scenario.name, scenario]));
    for (const entry of entries) {
      validateBuild(structuredClone(entry.agent), memoryLocator(entry.agentPath));
      validateChecks((entry.scenario.expect as { checks: unknown }).checks, memoryLocator(`${category}.scenarios.yaml`, [entry.id]));
      expect(byName.get(entry.id)).toEqual(JSON.parse(JSON.stringify(entry.scenario)));
      const tools = (entry.agent.agent as { tools: Array<{ name: string; parameters: object }> }).tools;
      for (const call of entry.expected) {
        const parameters = tools.find((tool) => tool.name === call.tool)!.parameters;
        if (!compileUserSchema(parameters)(call.call)) schemaMisfits++;
      }
    }
    // BFCL's ground truth is checked by value, not always against its own schema (e.g. a value outside an enum).
    console.log(`BFCL ${category}: ${entries.length} entries; ${schemaMisfits} ground-truth calls do not fit their own parameter schema`);
  });

  it('passes every ground-truth call and fails every wrong one, naming the argument or function', () => {
    const counts: Record<string, { failed: number; skipped: number }> = {};
    const problems: string[] = [];
    let passed = 0;
    for (const entry of entries) {
      const truth = score(entry, groundTruthCalls(entry.expected));
      if (truth.every((result) => result.status === 'pass')) passed++;
      else problems.push(`${entry.id} ground truth: ${truth.find((result) => result.status !== 'pass')!.reason}`);

      for (const [label, mutate] of Object.entries(MUTATIONS)) {
        const count = (counts[label] ??= { failed: 0, skipped: 0 });
        const mutation = mutate(entry.expected, entry.tools);
        if (!mutation) {
          count.skipped++;
          continue;
        }
        const failing = score(entry, mutation.calls).filter((result) => result.status === 'fail');
        if (
          failing.some(
            (result) =>
              result.reason.includes(`"${mutation.names}`) || result.reason.includes(`${mutation.names} `) || result.reason.includes(`(${mutation.names})`),
          )
        ) {
          count.failed++;
        } else {
          problems.push(
            `${entry.id} ${label} (${mutation.names}): ${failing.length ? failing.map((result) => result.reason).join(' | ') : 'every check passed'}`,
          );
        }
      }
    }
    const summary = Object.entries(counts)
      .map(([label, count]) => `${label} ${count.failed} failed / ${count.skipped} n/a`)
      .join('; ');
    console.log(`BFCL ${category}: ground truth ${passed}/${entries.length} passed; ${summary}`);
    expect(problems).toEqual([]);
    expect(passed).toBe(entries.length);
  });
});
