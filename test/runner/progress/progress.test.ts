import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../src/runner/progress/progress.js';
import type { ScenarioRow } from '../../../src/runner/report/report.js';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

function row(status: ScenarioRow['status']): ScenarioRow {
  return {
    id: 'a#b',
    name: 'b',
    file: 'a',
    variant: 'base',
    repeat: 0,
    tags: [],
    status,
    reason: '',
    test_run: null,
    checks: [],
    turns: 0,
    duration_ms: 1,
    error: null,
  };
}

describe('progress', () => {
  it('redraws one bar line on a TTY with done/total, failures and ETA, and clears it at the end', () => {
    const out = sink();
    const progress = createProgress(out.stream, true, 4);
    progress.update(row('pass'), 1, 4);
    progress.update(row('fail'), 4, 4);
    progress.finish();
    const text = out.text();
    expect(text).toContain('\r[######------------------] 1/4 done, 0 failed, ETA');
    expect(text).toContain('\r[########################] 4/4 done, 1 failed, ETA 0.0 s');
    expect(text).not.toContain('\n');
    expect(text.endsWith('\r\u001b[K')).toBe(true);
  });

  it('prints a plain line every 10% off a TTY, and nothing for short suites', () => {
    const out = sink();
    const progress = createProgress(out.stream, false, 100);
    for (let done = 1; done <= 100; done++) progress.update(row(done % 10 === 0 ? 'error' : 'pass'), done, 100);
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^agentcheck: 10\/100 done, 1 failed, ETA [\d.]+ s$/);
    expect(lines[9]).toMatch(/^agentcheck: 100\/100 done, 10 failed/);
    expect(out.text()).not.toContain('\r');

    const short = sink();
    const quiet = createProgress(short.stream, false, 5);
    for (let done = 1; done <= 5; done++) quiet.update(row('pass'), done, 5);
    expect(short.text()).toBe('');
  });
});
