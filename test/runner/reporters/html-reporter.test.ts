import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/runner/report/report.js';
import { HTML_ROW_LIMIT } from '../../../src/runner/reporters/html/rows-section.js';
import { HTML_FAILURE_LIMIT } from '../../../src/runner/reporters/html/failures-section.js';
import { fmtInterval, fmtMean, fmtMs, fmtP, fmtPercent, fmtPoints } from '../../../src/runner/reporters/html/format.js';
import { readTimelineSpans, type TimelineSpans } from '../../../src/runner/reporters/html/timeline-spans.js';
import { LANE_MAX_BARS } from '../../../src/runner/reporters/html/timeline-lane.js';
import { planTimelines, TIMELINE_MAX_LANES, TIMELINE_MAX_SCENARIOS } from '../../../src/runner/reporters/html/timelines-section.js';
import { HtmlReporter, renderHtml } from '../../../src/runner/reporters/html-reporter.js';
import { computeStats } from '../../../src/runner/stats/compute-stats.js';
import { spansToJsonl } from '../../../src/spans/jsonl.js';
import { bigReport, captureStream, report as reportOf, row, tempOut, testRunResult } from './fixture-report.js';
import { EVIL, fixtureSpans, htmlFixtureReport } from './html-fixture.js';
import { tags, textAfter, unparsedTags, withAttrs } from './html-scan.js';

function timelineSpans(report: Report): TimelineSpans {
  const byTrace = new Map<string, ReturnType<typeof fixtureSpans>>();
  for (const span of fixtureSpans(report)) byTrace.set(span.trace_id, [...(byTrace.get(span.trace_id) ?? []), span]);
  return { byTrace, unreadable: 0 };
}

/** The page for the fixture, with spans, as the CLI would render it. */
function page(report = htmlFixtureReport()): { html: string; report: Report } {
  return { html: renderHtml(report, timelineSpans(report)), report };
}

/** The `data-field` cells of the `<tr data-variant=...>` inside section `id`: raw value, attributes and text. */
function variantCells(html: string, id: string, variant: string): Map<string, { raw: number | null; text: string; attrs: Record<string, string> }> {
  const start = html.indexOf(`<section id="${id}">`);
  const section = html.slice(start, html.indexOf('</section>', start));
  const row = tags(section).find((tag) => tag.name === 'tr' && tag.attrs['data-variant'] === variant)!;
  const rowHtml = section.slice(row.index, section.indexOf('</tr>', row.index));
  const cells = tags(rowHtml).filter((tag) => tag.attrs['data-field']);
  return new Map(cells.map((cell) => [cell.attrs['data-field'], { raw: num(cell.attrs['data-value']), text: textAfter(rowHtml, cell), attrs: cell.attrs }]));
}

/** Raw data-value of a cell -> the number (or null) it stands for. */
function num(value: string | undefined): number | null {
  return value === undefined || value === '' ? null : Number(value);
}

describe('renderHtml', () => {
  it('escapes every piece of user text: no injected element, the text itself intact', () => {
    const { html } = page();
    expect(html).not.toContain('<img');
    expect(html).not.toContain('alert("x")</script>');
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39; &lt;img src=x onerror=alert(1)&gt;');
    expect(unparsedTags(html)).toEqual([]);
    // Attribute values come back exactly as the report had them.
    const rows = withAttrs(tags(html), { 'data-row-id': `evil/${EVIL}.scenario.yaml#${EVIL}` });
    expect(rows.length).toBeGreaterThanOrEqual(3); // failure item, lane, table row
    const bars = tags(html).filter((tag) => tag.name === 'rect' && tag.attrs['data-tool'] === 'send_email');
    expect(bars).toHaveLength(2);
    expect(html).toContain('arguments: {&quot;note&quot;:&quot;&lt;script&gt;');
  });

  it('keeps a name with line breaks as text: no heading, no link', () => {
    const inject = 'a\n<h1>agentcheck: PASSED</h1>\n[click](https://evil.test)';
    const report = reportOf([row('x.scenario.yaml', inject, { status: 'fail', reason: 'no' })]);
    const html = renderHtml(report, { byTrace: new Map(), unreadable: 0 });
    // The page's own title is its only h1.
    expect(tags(html).filter((tag) => tag.name === 'h1')).toHaveLength(1);
    expect(tags(html).filter((tag) => tag.name === 'a' && tag.attrs.href?.includes('evil'))).toEqual([]);
    expect(html).toContain('x.scenario.yaml#a\n&lt;h1&gt;agentcheck: PASSED&lt;/h1&gt;\n[click](https://evil.test)');
    expect(withAttrs(tags(html), { 'data-row-id': `x.scenario.yaml#${inject}` }).length).toBeGreaterThanOrEqual(2);
  });

  it("shows a run's transcript, escaped, in its failure item and its timeline lane", () => {
    const report = htmlFixtureReport();
    const row = report.scenarios.find((r) => r.status === 'fail')!;
    row.transcript = [
      { role: 'user', content: 'refund 1234' },
      { role: 'assistant', content: 'looking', tool_calls: [{ tool_call_id: 'c1', tool_name: 'lookup_order', input: { note: EVIL } }] },
      { role: 'tool', tool_call_id: 'c1', tool_name: 'lookup_order', content: '{"ok":false}', is_error: true },
    ];
    const html = renderHtml(report, timelineSpans(report));
    expect(unparsedTags(html)).toEqual([]);
    expect(html).not.toContain('<img');
    const failures = html.slice(html.indexOf('id="failures"'), html.indexOf('id="timelines"'));
    const timelines = html.slice(html.indexOf('id="timelines"'), html.indexOf('id="rows"'));
    for (const part of [failures, timelines]) {
      expect(part).toContain('<summary>Transcript (3 messages)</summary>');
      expect(
        tags(part)
          .filter((tag) => tag.name === 'li' && tag.attrs['data-role'])
          .map((tag) => tag.attrs['data-role']),
      ).toEqual(['user', 'assistant', 'tool']);
      expect(part).toContain('lookup_order({&quot;note&quot;:&quot;&lt;script&gt;');
      expect(part).toContain('<b>tool error</b> <code>lookup_order</code>');
    }
    row.transcript = [{ role: 'user', content: 'refund 1234' }];
    expect(renderHtml(report, timelineSpans(report))).toContain('<summary>Transcript (1 message)</summary>');
  });

  it('references no network resource: only #anchors and data: URLs, a CSP that forbids fetches', () => {
    const { html } = page();
    for (const tag of tags(html)) {
      for (const key of ['src', 'href', 'action', 'srcset', 'poster', 'xlink:href']) {
        if (tag.attrs[key] !== undefined) expect(tag.attrs[key]).toMatch(/^(#|data:)/);
      }
    }
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`);
    // The only http(s) text is the URL inside a reason, escaped as text.
    expect(html).toContain('https://example.com/not-a-resource');
    const withoutReasons = html.replace(/https:\/\/example\.com\/not-a-resource/g, '');
    expect(withoutReasons).not.toMatch(/https?:\/\//);
  });

  it('puts the summary counts in data- attributes equal to report.summary, a box per count, zeros included', () => {
    const { html, report } = page();
    const all = tags(html);
    expect(Object.keys(report.summary)).toEqual(expect.arrayContaining(['total', 'passed', 'failed', 'errored', 'not_run', 'skipped']));
    for (const [key, value] of Object.entries(report.summary)) {
      const boxes = withAttrs(all, { 'data-stat': key });
      expect(boxes, key).toHaveLength(1);
      expect(Number(boxes[0].attrs['data-value'])).toBe(value);
    }
    const header = withAttrs(all, { id: 'summary' })[0];
    expect(Number(header.attrs['data-duration-ms'])).toBe(report.duration_ms);
    expect(header.attrs['data-verdict']).toBe('FAILED');
  });

  it('draws each variant with data-pass-rate and the Wilson interval taken straight from report.stats', () => {
    const { html, report } = page();
    const all = tags(html);
    const stats = report.stats!;
    for (const [variant, s] of Object.entries(stats.variants)) {
      const [g] = all.filter((tag) => tag.name === 'g' && tag.attrs['data-variant'] === variant);
      expect(num(g.attrs['data-pass-rate'])).toBe(s.pass_rate);
      expect(num(g.attrs['data-ci-low'])).toBe(s.pass_rate_ci!.low);
      expect(num(g.attrs['data-ci-high'])).toBe(s.pass_rate_ci!.high);
      const cells = variantCells(html, 'pass-rates', variant);
      expect(cells.get('pass_rate')).toMatchObject({ raw: s.pass_rate, text: `${(s.pass_rate! * 100).toFixed(1)}%` });
      expect(num(cells.get('pass_rate_ci')!.attrs['data-ci-low'])).toBe(s.pass_rate_ci!.low);
      expect(cells.get('pass_rate_ci')!.text).toBe(`(${(s.pass_rate_ci!.low * 100).toFixed(1)}%, ${(s.pass_rate_ci!.high * 100).toFixed(1)}%)`);
      expect(cells.get('pass_hat_k')!.raw).toBe(s.pass_k.find((entry) => entry.k === 2)!.pass_hat_k);
      expect(cells.get('flaky')!.raw).toBe(s.labels.flaky);
    }
  });

  it('shows the tool-selection numbers of report.stats, formatted consistently', () => {
    const { html, report } = page();
    for (const [variant, s] of Object.entries(report.stats!.variants)) {
      const cells = variantCells(html, 'tool-selection', variant);
      const value = (field: string) => ({ raw: cells.get(field)!.raw, text: cells.get(field)!.text });
      expect(value('precision')).toEqual({ raw: s.tool_selection.precision, text: fmtPercent(s.tool_selection.precision) });
      expect(value('recall')).toEqual({ raw: s.tool_selection.recall, text: fmtPercent(s.tool_selection.recall) });
      expect(value('wrong_tool_calls_per_run').raw).toBe(s.tool_selection.wrong_tool_calls.per_run);
      expect(value('turns_mean')).toEqual({ raw: s.turns.mean, text: fmtMean(s.turns.mean) });
      expect(value('tokens_p50').raw).toBe(s.tokens.total.p50);
      expect(value('tokens_p95').raw).toBe(s.tokens.total.p95);
      expect(value('duration_p95')).toEqual({ raw: s.duration_ms.p95, text: fmtMs(s.duration_ms.p95) });
    }
  });

  it('colours confusion cells by count and carries each count in data-count', () => {
    const { html, report } = page();
    const cells = tags(html).filter((tag) => tag.name === 'td' && tag.attrs['data-kind'] === 'instead');
    let seen = 0;
    for (const [variant, s] of Object.entries(report.stats!.variants)) {
      for (const [expected, entry] of Object.entries(s.tool_selection.confusion)) {
        for (const [called, count] of Object.entries(entry.called_instead)) {
          const [cell] = withAttrs(cells, { 'data-variant': variant, 'data-expected': expected, 'data-called': called });
          expect(Number(cell.attrs['data-count'])).toBe(count);
          expect(cell.attrs.style).toMatch(/background: rgba\(207, 34, 46, 0\.\d+\)/);
          seen++;
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('says a variant with no scored runs has none, not that none missed an expected tool', () => {
    // base: scored runs that called what they expected; down: every run ended before the model answered (no_choices).
    const scored = (repeat: number) => row('a.scenario.yaml', 'a', { repeat, expected_tools: ['lookup_order'] });
    const unscored = (repeat: number) =>
      row('a.scenario.yaml', 'a', {
        variant: 'down',
        repeat,
        status: 'error',
        expected_tools: ['lookup_order'],
        no_choices: true,
        test_run: testRunResult({ tools: [], stop_reason: 'error', verdict: 'failed' }),
      });
    const runs = reportOf([scored(0), scored(1), unscored(0), unscored(1)]);
    runs.stats = computeStats(runs);
    expect([runs.stats.variants.base.tool_selection.runs, runs.stats.variants.down.tool_selection.runs]).toEqual([2, 0]);
    const html = renderHtml(runs);
    const note = (variant: string) => {
      const [tag] = withAttrs(tags(html), { 'data-variant': variant, 'data-confusion': variant === 'down' ? 'unscored' : 'none' });
      return tag && textAfter(html, tag);
    };
    expect(note('base')).toBe('base: no run missed an expected tool.');
    expect(note('down')).toBe('down: no scored runs (a run is scored when it made choices and its scenario expects a tool), so no missed tool to show.');
    expect(html).not.toContain('down: no run missed');
  });

  it('shows the paired comparison: McNemar p, the difference with its interval, the flips', () => {
    const { html, report } = page();
    const [paired] = report.stats!.paired;
    const section = html.slice(html.indexOf('id="paired"'), html.indexOf('id="failures"'));
    const cell = (field: string) => tags(section).find((tag) => tag.attrs['data-field'] === field)!;
    expect(num(cell('mcnemar_p').attrs['data-value'])).toBe(paired.mcnemar_p);
    expect(textAfter(section, cell('mcnemar_p'))).toBe(fmtP(paired.mcnemar_p));
    expect(num(cell('difference').attrs['data-value'])).toBe(paired.difference);
    expect(num(cell('difference').attrs['data-ci-low'])).toBe(paired.difference_ci!.low);
    expect(textAfter(section, cell('difference'))).toBe(
      `${fmtPoints(paired.difference)} (${fmtPoints(paired.difference_ci!.low, false)} to ${fmtPoints(paired.difference_ci!.high, false)})`,
    );
    expect(Number(cell('flips').attrs['data-flipped-to-fail'])).toBe(paired.flipped_to_fail.length);
    for (const id of paired.flipped_to_fail) expect(withAttrs(tags(section), { 'data-scenario': id })).toHaveLength(1);
  });

  it('lists failures before the rows, and the rows with their status', () => {
    const { html, report } = page();
    const failures = html.indexOf('id="failures"');
    expect(failures).toBeGreaterThan(html.indexOf('id="pass-rates"'));
    expect(failures).toBeLessThan(html.indexOf('id="rows"'));
    const items = tags(html).filter((tag) => tag.name === 'li' && tag.attrs.class?.startsWith('failure '));
    expect(items.map((tag) => tag.attrs['data-status']).sort()).toEqual(
      report.scenarios
        .filter((r) => r.status === 'fail' || r.status === 'error')
        .map((r) => r.status)
        .sort(),
    );
    const rows = tags(html).filter((tag) => tag.name === 'tr' && tag.attrs['data-row-id'] !== undefined);
    expect(rows.map((tag) => tag.attrs['data-status'])).toEqual(report.scenarios.map((r) => r.status));
  });

  it('draws one lane per run with a bar per tool call, coloured by outcome and flagged when unexpected', () => {
    const { html, report } = page();
    const evil = report.scenarios.at(-1)!;
    const lane = tags(html).find((tag) => tag.attrs.class === 'lane' && tag.attrs['data-trace-id'] === evil.test_run!.trace_id)!;
    expect(Number(lane.attrs['data-tool-calls'])).toBe(2);
    const bars = tags(html.slice(lane.index, html.indexOf('</svg>', lane.index))).filter((tag) => tag.name === 'rect' && tag.attrs['data-tool']);
    expect(bars.map((bar) => bar.attrs['data-outcome'])).toEqual(['error', 'ok']);
    expect(bars.every((bar) => bar.attrs['data-wrong'] === 'true' && bar.attrs.class.includes('wrong'))).toBe(true);
    expect(bars.map((bar) => Number(bar.attrs['data-start-ms']))).toEqual([30, 45]);
  });

  it('renders without stats (computing them, with a note) and without spans (with a note)', () => {
    const report = htmlFixtureReport();
    delete report.stats;
    const html = renderHtml(report, null);
    expect(html).toContain('report.json has no stats block');
    expect(html).toContain('data-timelines="no-spans"');
    expect(withAttrs(tags(html), { 'data-variant': 'terse' }).length).toBeGreaterThan(0);
    expect(unparsedTags(html)).toEqual([]);
  });

  it('renders an empty run and a single-variant run without paired or repeat columns', () => {
    const empty = renderHtml({
      ...htmlFixtureReport(),
      scenarios: [],
      summary: { total: 0, passed: 0, failed: 0, errored: 0, not_run: 0, skipped: 0 },
      stats: undefined,
    });
    expect(empty).toContain('No scenarios ran.');
    const single = renderHtml(bigReport(5, 2));
    expect(single).not.toContain('id="paired"');
    expect(single).not.toContain('<th class="num">#</th>');
  });

  it('caps the rows, the failures and the timelines of a large run, and says so', () => {
    const report = bigReport(HTML_ROW_LIMIT + 300, 2);
    const html = renderHtml(report, { byTrace: new Map(), unreadable: 0 });
    expect(tags(html).filter((tag) => tag.name === 'tr' && tag.attrs['data-row-id'])).toHaveLength(HTML_ROW_LIMIT);
    expect(html).toContain(`data-rows-omitted="300"`);
    expect(tags(html).filter((tag) => tag.attrs.class?.startsWith('failure '))).toHaveLength(HTML_FAILURE_LIMIT);
    const plan = planTimelines(report);
    expect(plan.groups.length).toBeLessThanOrEqual(TIMELINE_MAX_SCENARIOS);
    expect(plan.groups.flatMap((g) => g.rows).length).toBeLessThanOrEqual(TIMELINE_MAX_LANES);
    expect(plan.groups.every((g) => g.rows.some((r) => r.status === 'fail'))).toBe(true);
  });

  it('draws the first runs of a scenario with more runs than the lane budget, failing ones first, and says how many are not drawn', () => {
    // 301 repeats of one scenario (two of them failing, one the very last), then a one-run scenario.
    const runs = TIMELINE_MAX_LANES + 1;
    const failing = new Set([120, runs - 1]);
    const rows = Array.from({ length: runs }, (_, repeat) =>
      row('loop.scenario.yaml', 'loop', {
        repeat,
        ...(failing.has(repeat) ? { status: 'fail' as const, reason: 'looped' } : {}),
        test_run: testRunResult({ trace_id: repeat.toString(16).padStart(32, '0') }),
      }),
    );
    rows.push(row('other.scenario.yaml', 'other', { test_run: testRunResult({ trace_id: 'f'.repeat(32) }) }));
    const report = reportOf(rows);
    const plan = planTimelines(report);
    expect(plan.groups.map((group) => [group.id, group.rows.length, group.omitted])).toEqual([['loop.scenario.yaml#loop', TIMELINE_MAX_LANES, 1]]);
    // The last passing run makes room for the last, failing one; the lanes keep repeat order.
    expect(plan.groups[0].rows.map((r) => r.repeat)).toEqual([...Array.from({ length: runs - 2 }, (_, i) => i), runs - 1]);
    expect([plan.omittedScenarios, plan.omittedLanes]).toEqual([1, 1]);

    const html = renderHtml(report, timelineSpans(report), plan);
    expect(tags(html).filter((tag) => tag.attrs.class === 'lane')).toHaveLength(TIMELINE_MAX_LANES);
    const timeline = tags(html).find((tag) => tag.attrs.class === 'timeline')!;
    expect(timeline.attrs['data-runs-omitted']).toBe('1');
    const note = tags(html).find((tag) => tag.attrs['data-runs-omitted'] && tag.name === 'p')!;
    expect(textAfter(html, note)).toBe(
      `1 more run of this scenario has no timeline here (at most ${TIMELINE_MAX_LANES} runs are drawn), to keep the page small; spans.jsonl holds them all.`,
    );
    expect(html).toContain('1 more scenario (1 run) has no timeline here, to keep the page small; spans.jsonl holds them all.');
  });

  it('says in the lane how many tool calls past the bar limit it does not draw', () => {
    const calls = LANE_MAX_BARS + 50;
    const looping = row('loop.scenario.yaml', 'loop', {
      test_run: testRunResult({ tools: [{ name: 'lookup_order', called: calls, returned: calls, errors: 0 }], trace_id: '1'.repeat(32) }),
    });
    const short = row('short.scenario.yaml', 'short', { test_run: testRunResult({ trace_id: '2'.repeat(32) }) });
    const report = reportOf([looping, short]);
    const html = renderHtml(report, timelineSpans(report));
    const lane = tags(html).find((tag) => tag.attrs.class === 'lane' && tag.attrs['data-trace-id'] === '1'.repeat(32))!;
    expect(lane.attrs['data-tool-calls']).toBe(String(calls));
    const bars = tags(html.slice(lane.index, html.indexOf('</svg>', lane.index))).filter((tag) => tag.name === 'rect' && tag.attrs['data-tool']);
    expect(bars).toHaveLength(LANE_MAX_BARS);
    const notes = tags(html).filter((tag) => tag.attrs['data-bars-omitted']);
    expect(notes.map((tag) => tag.attrs['data-bars-omitted'])).toEqual(['50']);
    expect(notes[0].index).toBeGreaterThan(lane.index);
    expect(textAfter(html, notes[0])).toBe(
      `50 more tool calls are not drawn in this lane (at most ${LANE_MAX_BARS}), to keep the page small; spans.jsonl holds them all.`,
    );
  });

  it('points at report.json for what it leaves out only when the command writes it, else says how', async () => {
    const report = bigReport(HTML_ROW_LIMIT + 300, 2);
    const written = renderHtml(report, { byTrace: new Map(), unreadable: 0 });
    expect(written).toContain(`more failures and errors are in report.json.</p>`);
    expect(written).toContain('runs; report.json holds them all.</p>');
    const out = await tempOut();
    await new HtmlReporter().onRunEnd(report, { out: out.dir, stdout: captureStream().stream, color: false, files: ['report.html'] });
    const alone = await readFile(join(out.dir, 'report.html'), 'utf8');
    await out.cleanup();
    expect(alone).toContain(
      `${report.scenarios.length / 2 - HTML_FAILURE_LIMIT} more failures and errors are in report.json (written with --reporter json).</p>`,
    );
    expect(alone).toContain('runs; report.json (written with --reporter json) holds them all.</p>');
    expect(alone).not.toContain('are in report.json.</p>');
  });

  it('formats numbers one way everywhere', () => {
    expect([fmtPercent(1), fmtPercent(0.8333), fmtPercent(null)]).toEqual(['100.0%', '83.3%', '-']);
    expect(fmtInterval({ low: 0.49, high: 0.9433 })).toBe('(49.0%, 94.3%)');
    expect([fmtPoints(-0.3333), fmtPoints(-0.00001), fmtPoints(0.25, false)]).toEqual(['-33.3 pp', '+0.0 pp', '+25.0']);
    expect([fmtP(0.0002), fmtP(0.02148), fmtP(1)]).toEqual(['<0.001', '0.021', '1.000']);
  });
});

describe('HtmlReporter', () => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(() => cleanup());

  it('writes OUT/report.html with timelines from OUT/spans.jsonl, skipping unreadable lines', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const report = htmlFixtureReport();
    await writeFile(join(out.dir, 'spans.jsonl'), `${spansToJsonl(fixtureSpans(report))}{"trace_id":"${report.scenarios[0].test_run!.trace_id}", broken\n`);
    await new HtmlReporter().onRunEnd(report, { out: out.dir, stdout: captureStream().stream, color: false });
    const html = await readFile(join(out.dir, 'report.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(tags(html).filter((tag) => tag.attrs.class === 'lane').length).toBe(report.scenarios.filter((r) => r.test_run).length);
    expect(html).toContain('1 lines of spans.jsonl could not be read.');
  });

  it('writes the page without spans.jsonl and reads only the traces it draws', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    await new HtmlReporter().onRunEnd(htmlFixtureReport(), { out: out.dir, stdout: captureStream().stream, color: false });
    expect(await readFile(join(out.dir, 'report.html'), 'utf8')).toContain('data-timelines="no-spans"');
    const report = htmlFixtureReport();
    const file = join(out.dir, 'spans.jsonl');
    await writeFile(file, spansToJsonl(fixtureSpans(report)));
    const one = report.scenarios[0].test_run!.trace_id;
    const read = await readTimelineSpans(file, new Set([one]));
    expect([...read!.byTrace.keys()]).toEqual([one]);
  });
});
