import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { ROOT, runCli } from './cli.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('scenarios/judge (the example)', () => {
  it('grades offline from the committed cassettes: a pass, an expected failure, grading spans apart', async () => {
    const out = mkdtempSync(join(tmpdir(), 'agentcheck-judge-'));
    made.push(out);
    const result = await runCli(['run', 'scenarios/judge', '--reporter', 'json', '--out', out], ROOT, { OPENAI_API_KEY: '' });
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const judge = (name: string) => report.scenarios.find((row) => row.name === name)!.checks.find((check) => check.kind === 'judge');
    expect(judge('apologetic reply')).toMatchObject({
      status: 'pass',
      reason: 'score 1 >= 0.7: The reply has every phrase the rubric asks for ("r1", "sorry").',
    });
    expect(judge('curt reply')).toMatchObject({ status: 'fail', reason: 'score 0.5 < 0.7: The reply lacks "sorry"; it has "r1".' });
    expect(report.scenarios.map((row) => row.turns)).toEqual([2, 2]);

    const spans = readFileSync(join(out, 'spans.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as SpanRecord);
    const evaluations = spans.filter((span) => span.name === 'evaluate judge#1');
    expect(evaluations).toHaveLength(2);
    expect(evaluations.map((span) => span.events?.[0].attributes?.['gen_ai.evaluation.score.label']).sort()).toEqual(['fail', 'pass']);
  });
});
