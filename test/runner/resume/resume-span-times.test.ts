import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Checkpoint } from '../../../src/engine/checkpoint/checkpointer.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { executeTestRun, type TestRunRecord } from '../../../src/runner/test-run.js';
import { twoGatedWrites } from '../../helpers/gated-write.js';

// A resume in another process (agentcheck resume, MCP resume_run, the library's resumeTestRun)
// joins the spans the paused run left (TestRunControl.earlierSpans) with its own: the joined run
// keeps one timeline even when that process's wall clock reads earlier than the pause's did.

afterEach(() => {
  vi.restoreAllMocks();
});

/** Resumes `paused` with approve, its wall clock `behindMs` behind the time the pause recorded. */
async function resumeBehind(paused: TestRunRecord, behindMs: number): Promise<TestRunRecord> {
  const now = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => now() - behindMs);
  try {
    return await executeTestRun(twoGatedWrites, paused.revision, {
      from: { checkpoint: paused.checkpoint as Checkpoint, decision: 'approve' },
      workspace: paused.workspace,
      earlierSpans: paused.runSpans,
    });
  } finally {
    vi.restoreAllMocks();
  }
}

/** Problems with the joined trace's times: a span before its parent or after the root, turns out of order. */
function timelineProblems(spans: readonly SpanRecord[]): string[] {
  const problems: string[] = [];
  const byId = new Map(spans.map((span) => [span.span_id, span]));
  const root = spans.find((span) => span.parent_id === null) as SpanRecord;
  for (const span of spans) {
    const parent = span.parent_id === null ? undefined : byId.get(span.parent_id);
    if (parent && span.start_ms < parent.start_ms) problems.push(`${span.name} starts before its parent`);
    if (span.end_ms > root.end_ms) problems.push(`${span.name} ends after the root`);
  }
  const chats = spans.filter((span) => span.name.startsWith('chat')).sort((a, b) => a.start_ms - b.start_ms);
  for (let i = 1; i < chats.length; i++) if (chats[i].start_ms < chats[i - 1].end_ms) problems.push(`chat ${i} starts before chat ${i - 1} ended`);
  return problems;
}

describe('a resume joins the earlier spans on one timeline', () => {
  it('moves a resume whose clock reads earlier after the pause, through two resumes', async () => {
    const first = await executeTestRun(twoGatedWrites);
    try {
      expect(first.turn.stop_reason).toBe('paused');
      const second = await resumeBehind(first, 60_000);
      expect(second.turn.stop_reason).toBe('paused');
      // What the checkpoint file keeps for the next resume, and the whole run the last one scores.
      expect(timelineProblems(second.runSpans)).toEqual([]);
      const third = await resumeBehind(second, 120_000);
      expect(third.result.verdict).toBe('pass');
      expect(timelineProblems(third.runSpans)).toEqual([]);
      expect(third.runSpans.filter((span) => span.name.startsWith('chat'))).toHaveLength(3);
      // The resumed run's own spans (what --spans gets) keep the times they were recorded at.
      const ownRoot = third.spans.find((span) => span.parent_id === null) as SpanRecord;
      expect(ownRoot.start_ms).toBeLessThan(first.runSpans[0].start_ms);
    } finally {
      await first.workspace.dispose();
    }
  });
});
