import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLane } from '../../../src/runner/reporters/html/timeline-lane.js';
import { readTimelineSpans } from '../../../src/runner/reporters/html/timeline-spans.js';
import { spansToJsonl } from '../../../src/spans/jsonl.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { spanRecord } from '../../helpers/span-record.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { buildEvidence, visibleCalls } from '../../../src/verdicts/index.js';
import { row } from './fixture-report.js';

const T = 'trace-1';
const tool = (id: string, parent: string, name: string, attributes: SpanRecord['attributes'] = {}) =>
  spanRecord(T, id, parent, `execute_tool ${name}`, 10, 1, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, ...attributes });
const exported = { 'agentcheck.external.exported': true };

// One run: the model calls lookup (expected) and stray (not), a chain calls audit, and an external
// agent's own spans hold outer (expected) with inner inside it, also below an agent span of its own.
const spans: SpanRecord[] = [
  spanRecord(T, 'root', null, 'invoke_agent bot', 0, 100, { 'gen_ai.operation.name': 'invoke_agent' }),
  tool('m1', 'root', 'lookup', { 'agentcheck.tool.source': 'model' }),
  tool('m2', 'root', 'stray', { 'agentcheck.tool.source': 'model' }),
  spanRecord(T, 'step', 'm1', 'chain_step audit', 10, 1, { 'gen_ai.operation.name': 'chain_step' }),
  tool('c1', 'step', 'audit', { 'agentcheck.tool.source': 'chain' }),
  tool('x1', 'root', 'outer', exported),
  tool('x2', 'x1', 'inner', exported),
  spanRecord(T, 'x3', 'x1', 'ai.generateText', 10, 1, exported),
  tool('x4', 'x3', 'deep', exported),
];

/** Each bar as `tool: nested/wrong` flags. */
function bars(lane: ReturnType<typeof buildLane>): Record<string, string> {
  return Object.fromEntries(lane.bars.map((bar) => [bar.tool, `${bar.nested ? 'nested' : 'own'}${bar.wrong ? ' wrong' : ''}`]));
}

describe('timeline bars: nested and wrong calls as the statistics count them', () => {
  const scenarioRow = row('t.yaml', 'n', { expected_tools: ['lookup', 'outer'] });

  it('marks wrong only a call of an unexpected tool that the digest counts: never a call nested in a chain or in another call', () => {
    expect(bars(buildLane(scenarioRow, spans))).toEqual({
      lookup: 'own',
      stray: 'own wrong',
      audit: 'nested',
      outer: 'own',
      inner: 'nested',
      deep: 'nested',
    });
    // The calls the test_run digest (and so tool selection) counts are exactly the bars not nested.
    expect(visibleCalls(buildEvidence({ spans })).map((call) => call.name)).toEqual(['lookup', 'stray', 'outer']);
  });

  it("keeps an external agent's own spans when reading spans.jsonl, so a call below one of them is still seen as nested", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'spans.jsonl'), spansToJsonl(spans));
    const read = await readTimelineSpans(join(dir, 'spans.jsonl'), new Set([T]));
    // The chain step is not kept (the call declares its source); the exported agent span is.
    expect(read!.byTrace.get(T)!.map((span) => span.span_id)).toEqual(['root', 'm1', 'm2', 'c1', 'x1', 'x2', 'x3', 'x4']);
    expect(bars(buildLane(scenarioRow, read!.byTrace.get(T)!))).toEqual(bars(buildLane(scenarioRow, spans)));
  });
});
