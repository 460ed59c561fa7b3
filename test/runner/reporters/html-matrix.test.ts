import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/runner/report/report.js';
import { renderHtml } from '../../../src/runner/reporters/html-reporter.js';
import { ROWS_TRANSCRIPT_BUDGET } from '../../../src/runner/reporters/html/rows-section.js';
import { computeStats } from '../../../src/runner/stats/compute-stats.js';
import { EVIL, htmlFixtureReport } from './html-fixture.js';
import { tags, textAfter, unparsedTags, withAttrs } from './html-scan.js';

/** The fixture (base and terse, two repeats of one scenario) plus the deltas a config would record. */
function matrixReport(): Report {
  const report = htmlFixtureReport();
  report.suite.variant_deltas = { terse: { set: { agent: { instructions: `Be brief. ${EVIL}` } } } };
  return report;
}

function sectionOf(html: string, id: string): string {
  const start = html.indexOf(`<section id="${id}">`);
  expect(start, id).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</section>', start));
}

describe('the HTML scenario x variant matrix', () => {
  it("has one row per scenario and one cell per variant, with each cell's status and counts", () => {
    const report = matrixReport();
    const matrix = sectionOf(renderHtml(report), 'matrix');
    const ids = [...new Set(report.scenarios.map((row) => row.id))];
    expect(
      tags(matrix)
        .filter((tag) => tag.name === 'tr' && tag.attrs['data-scenario'] !== undefined)
        .map((tag) => tag.attrs['data-scenario']),
    ).toEqual(ids);
    const cells = tags(matrix).filter((tag) => tag.name === 'td' && tag.attrs['data-scenario'] !== undefined);
    expect(cells).toHaveLength(ids.length * 2);
    const cell = (id: string, variant: string) => withAttrs(cells, { 'data-scenario': id, 'data-variant': variant })[0].attrs;
    const refund = 'support/refund.scenario.yaml#refund ok';
    // base: both repeats pass; terse: one fails, one passes.
    expect(cell(refund, 'base')).toMatchObject({ 'data-status': 'pass', 'data-runs': '2', 'data-passed': '2' });
    expect(cell(refund, 'terse')).toMatchObject({ 'data-status': 'mixed', 'data-runs': '2', 'data-passed': '1' });
    expect(cell('flows/flow.scenarios.yaml#flow crash', 'base')).toMatchObject({ 'data-status': 'error', 'data-passed': '0' });
    // A scenario the variant never ran is a dash, not a pass.
    expect(cell('flows/flow.scenarios.yaml#not reached', 'terse')).toMatchObject({ 'data-status': 'none' });
    // A run that reached no result is no run of the cell's counts, as the visible passed/runs says.
    expect(cell('flows/flow.scenarios.yaml#not reached', 'base')).toMatchObject({ 'data-status': 'not_run', 'data-runs': '0', 'data-passed': '0' });
  });

  it('links every run of a cell to its row in the all-runs table, where its transcript is', () => {
    const report = matrixReport();
    report.scenarios[2].transcript = [
      { role: 'user', content: 'Refund order 1234' },
      { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'c1', tool_name: 'lookup_order', input: { order_id: EVIL } }] },
    ];
    const html = renderHtml(report);
    const links = tags(sectionOf(html, 'matrix')).filter((tag) => tag.name === 'a' && tag.attrs.class?.includes('run-link'));
    // Every run of the report is linked exactly once.
    expect(links.map((link) => Number(link.attrs['data-row-index'])).sort((a, b) => a - b)).toEqual(report.scenarios.map((_, i) => i));
    for (const link of links) {
      const index = Number(link.attrs['data-row-index']);
      expect(link.attrs.href).toBe(`#run-${index}`);
      const target = withAttrs(tags(html), { id: `run-${index}` });
      expect(target).toHaveLength(1);
      expect(target[0].name).toBe('tr');
      const row = report.scenarios[index];
      expect(target[0].attrs).toMatchObject({
        'data-row-id': row.id,
        'data-variant': row.variant,
        'data-repeat': String(row.repeat),
        'data-status': row.status,
      });
      expect(link.attrs['data-status']).toBe(row.status);
    }
    // With repeats a cell links each repeat by its number.
    const terseRefund = links.filter((link) => ['2', '3'].includes(link.attrs['data-row-index']));
    expect(terseRefund.map((link) => textAfter(sectionOf(html, 'matrix'), link))).toEqual(['#0', '#1']);
    // The linked row holds the transcript, escaped.
    const row = html.slice(html.indexOf('<tr id="run-2"'), html.indexOf('</tr>', html.indexOf('<tr id="run-2"')));
    expect(row).toContain('<details class="transcript"><summary>Transcript (2 messages)</summary>');
    expect(row).toContain('lookup_order({&quot;order_id&quot;:&quot;&lt;script&gt;');
  });

  it('heads each variant with its delta and foots it with its pass rate and difference from base', () => {
    const report = matrixReport();
    const stats = report.stats!;
    const matrix = sectionOf(renderHtml(report), 'matrix');
    const heads = tags(matrix).filter((tag) => tag.name === 'th' && tag.attrs['data-variant'] !== undefined);
    expect(heads.map((tag) => tag.attrs['data-variant'])).toEqual(['base', 'terse']);
    expect(matrix).toContain('unchanged build');
    const delta = matrix.slice(matrix.indexOf('<details class="delta">'), matrix.indexOf('</details>', matrix.indexOf('<details class="delta">')));
    // The delta as JSON (report.json's own text), escaped for the page.
    expect(delta).toContain('&quot;instructions&quot;: &quot;Be brief. &lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt;');

    const foot = tags(matrix).filter((tag) => tag.name === 'td' && tag.attrs['data-field']);
    const value = (variant: string, field: string) => withAttrs(foot, { 'data-variant': variant, 'data-field': field })[0];
    for (const variant of ['base', 'terse']) {
      const s = stats.variants[variant];
      const rate = value(variant, 'pass_rate');
      expect(rate.attrs['data-value']).toBe(String(s.pass_rate));
      expect(textAfter(matrix, rate)).toBe(`${(s.pass_rate! * 100).toFixed(1)}% (${s.passed}/${s.runs})`);
    }
    const paired = stats.paired.find((p) => p.variant === 'terse')!;
    expect(value('terse', 'difference').attrs['data-value']).toBe(String(paired.difference));
    expect(textAfter(matrix, value('terse', 'difference'))).toMatch(/^[+-]\d+\.\d pp$/);
    expect(textAfter(matrix, value('base', 'difference'))).toBe('reference');
  });

  it('escapes hostile scenario ids and variant names, and links by index only', () => {
    const report = matrixReport();
    const evil = report.scenarios.find((row) => row.id.includes('onerror'))!;
    report.scenarios.push({ ...evil, variant: EVIL, repeat: 0 });
    report.suite.variants.push(EVIL);
    report.suite.variant_deltas = { ...report.suite.variant_deltas, [EVIL]: { remove: [EVIL] } };
    report.stats = computeStats(report);
    const html = renderHtml(report);
    const matrix = sectionOf(html, 'matrix');
    expect(unparsedTags(html)).toEqual([]);
    expect(html).not.toContain('<img');
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(withAttrs(tags(matrix), { 'data-variant': EVIL, 'data-scenario': evil.id })).toHaveLength(1);
    expect(
      tags(matrix)
        .filter((tag) => tag.name === 'a')
        .every((tag) => /^#run-\d+$/.test(tag.attrs.href)),
    ).toBe(true);
    expect(matrix).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('leaves out the delta disclosure for a report without variant_deltas (older reports)', () => {
    const report = htmlFixtureReport();
    const matrix = sectionOf(renderHtml(report), 'matrix');
    expect(matrix).not.toContain('class="delta"');
    expect(tags(matrix).filter((tag) => tag.name === 'th' && tag.attrs['data-variant'])).toHaveLength(2);
  });
});

describe('transcripts in the all-runs table', () => {
  it('stop at a page-size budget; later rows point at report.json', () => {
    const report = htmlFixtureReport();
    const long: NonNullable<Report['scenarios'][number]['transcript']> = Array.from({ length: 100 }, (_, i) => ({
      role: 'user' as const,
      content: `${i} ${'x'.repeat(2000)}`,
    }));
    report.scenarios = Array.from({ length: 30 }, (_, i) => ({ ...report.scenarios[0], repeat: i, transcript: long }));
    report.stats = computeStats(report);
    const rows = sectionOf(renderHtml(report), 'rows');
    const shown = rows.match(/<details class="transcript">/g)?.length ?? 0;
    const omitted = rows.match(/data-transcript="omitted"/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(0);
    expect(omitted).toBeGreaterThan(0);
    expect(shown + omitted).toBe(30);
    expect(rows.length).toBeLessThan(ROWS_TRANSCRIPT_BUDGET + 200_000);
  });
});
