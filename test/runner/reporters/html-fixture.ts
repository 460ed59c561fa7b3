import { spanRecord } from '../../helpers/span-record.js';
import { summarize, type Report, type ScenarioRow } from '../../../src/runner/report/report.js';
import { computeStats } from '../../../src/runner/stats/compute-stats.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { fixtureReport, row, testRunResult } from './fixture-report.js';

/** Text that breaks HTML when it is not escaped: a script, an attribute break-out, an entity. */
export const EVIL = `<script>alert("x")</script> & "q" 'a' <img src=x onerror=alert(1)>`;

/**
 * fixtureReport() with unique trace ids, expected tools, a row whose scenario, variant and
 * reason are EVIL, and stats computed as the runner would.
 */
export function htmlFixtureReport(): Report {
  const base = fixtureReport();
  const evil: ScenarioRow = row(`evil/${EVIL}.scenario.yaml`, EVIL, {
    variant: 'terse',
    status: 'fail',
    reason: `${EVIL}\nhttps://example.com/not-a-resource`,
    test_run: testRunResult({ tools: [{ name: 'send_email', called: 2, returned: 1, errors: 1 }], verdict: 'failed', verdict_reason: EVIL }),
  });
  const rows = [...base.scenarios, evil].map((r, i) => ({
    ...r,
    expected_tools: ['lookup_order', 'create_refund'],
    usage: { input_tokens: 100 + i, output_tokens: 10 + i },
    test_run: r.test_run && { ...r.test_run, trace_id: i.toString(16).padStart(32, '0') },
  }));
  const report: Report = { ...base, scenarios: rows, summary: summarize(rows) };
  report.stats = computeStats(report);
  return report;
}

/** A root span, one chat span and one execute_tool span per call in each row's test_run. */
export function fixtureSpans(report: Readonly<Report>): SpanRecord[] {
  const spans: SpanRecord[] = [];
  report.scenarios.forEach((r, i) => {
    if (!r.test_run) return;
    const trace = r.test_run.trace_id;
    const t0 = 1_700_000_000_000 + i * 1000;
    const root = `r${i}`.padStart(16, '0');
    spans.push(spanRecord(trace, root, null, `invoke_agent bot`, t0, 100, {}));
    spans.push(spanRecord(trace, `c${i}`.padStart(16, '0'), root, 'chat script', t0 + 1, 20, { 'gen_ai.operation.name': 'chat' }));
    let at = t0 + 30;
    r.test_run.tools.forEach((tool, j) => {
      for (let k = 0; k < tool.called; k++) {
        const failed = k < tool.errors;
        spans.push(
          spanRecord(
            trace,
            `t${i}-${j}-${k}`.padStart(16, '0'),
            root,
            `execute_tool ${tool.name}`,
            at,
            10,
            {
              'gen_ai.operation.name': 'execute_tool',
              'gen_ai.tool.name': tool.name,
              'gen_ai.tool.call.arguments': JSON.stringify({ note: EVIL }),
              'gen_ai.tool.call.result': failed ? '{"ok":false}' : '{"ok":true}',
              'agentcheck.tool.source': 'model',
              'agentcheck.tool.outcome': failed ? 'error' : 'ok',
            },
            failed ? 'error' : 'ok',
          ),
        );
        at += 15;
      }
    });
  });
  return spans;
}
