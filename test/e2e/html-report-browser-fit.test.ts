import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, ScenarioRow } from '../../src/runner/report/report.js';
import { renderHtml } from '../../src/runner/reporters/html-reporter.js';
import { computeStats } from '../../src/runner/stats/compute-stats.js';
import { fixtureSpans, htmlFixtureReport } from '../runner/reporters/html-fixture.js';
import { report as reportOf, row } from '../runner/reporters/fixture-report.js';
import { hasChromium, launchChromium, openTestPage, pageWidth } from './html-browser.js';

/** One scenario run `repeats` times under two variants, every seventh repeat failing. */
function repeatsReport(repeats: number): Report {
  const rows: ScenarioRow[] = ['base', 'terse'].flatMap((variant) =>
    Array.from({ length: repeats }, (_, repeat) =>
      row('i.scenario.yaml', 'lookup', { variant, repeat, ...(repeat % 7 === 3 ? { status: 'fail', reason: 'lookup was not the terminal tool' } : {}) }),
    ),
  );
  const report = reportOf(rows);
  report.suite.repeat = repeats;
  report.stats = computeStats(report);
  return report;
}

/** The right edge of every element matching `selector`, against the window's width. */
async function rightEdges(page: Page, selector: string): Promise<{ count: number; right: number; page: number }> {
  return page.$$eval(selector, (elements) => ({
    count: elements.length,
    right: Math.max(...elements.map((element) => element.getBoundingClientRect().right)),
    page: (elements[0]?.ownerDocument as unknown as { documentElement: { clientWidth: number } }).documentElement.clientWidth,
  }));
}

describe('report.html fits a 1024-pixel window', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    if (!hasChromium) return;
    dir = mkdtempSync(join(tmpdir(), 'agentcheck-html-fit-'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const repeats of [100, 500]) {
    it.skipIf(!hasChromium)(
      `with ${repeats} repeats: the repeat links wrap inside their cell, and each cell's status and the pass rates stay in view`,
      async () => {
        const file = join(dir, `repeats-${repeats}.html`);
        writeFileSync(file, renderHtml(repeatsReport(repeats)));
        const { page, problems } = await openTestPage(browser, file, { width: 1024, height: 800 });
        expect(problems).toEqual({ console: [], errors: [], requests: [] });
        expect(await page.locator('#matrix a.run-link').count()).toBe(Math.min(2 * repeats, 1000));
        const matrix = await rightEdges(page, 'table.matrix');
        expect(matrix.right).toBeLessThanOrEqual(matrix.page);
        const statuses = await rightEdges(page, 'table.matrix td.cell > .status');
        expect(statuses.count).toBe(2);
        expect(statuses.right).toBeLessThanOrEqual(matrix.page);
        const rates = await rightEdges(page, 'table.matrix tfoot td[data-field="pass_rate"]');
        expect(rates.count).toBe(2);
        expect(rates.right).toBeLessThanOrEqual(matrix.page);
        const width = await pageWidth(page);
        expect(width.scroll).toBeLessThanOrEqual(width.client);
      },
    );
  }

  it.skipIf(!hasChromium)('with a 220-character scenario id and variant name: headings, failures and lists break inside the word', async () => {
    const fixture = htmlFixtureReport();
    const long = `support/${'x'.repeat(191)}.scenario.yaml#refund`;
    const variant = 'v'.repeat(220);
    const rows = fixture.scenarios.map((r) => ({
      ...r,
      id: r.id.startsWith('support/refund.scenario.yaml#') ? long : r.id,
      variant: r.variant === 'terse' ? variant : r.variant,
    }));
    const report: Report = { ...fixture, scenarios: rows, suite: { ...fixture.suite, variants: ['base', variant] } };
    report.stats = computeStats(report);
    const byTrace = new Map<string, ReturnType<typeof fixtureSpans>>();
    for (const span of fixtureSpans(report)) byTrace.set(span.trace_id, [...(byTrace.get(span.trace_id) ?? []), span]);
    const file = join(dir, 'long-id.html');
    writeFileSync(file, renderHtml(report, { byTrace, unreadable: 0 }));
    const { page, problems } = await openTestPage(browser, file, { width: 1024, height: 800 });
    expect(problems).toEqual({ console: [], errors: [], requests: [] });
    expect(long).toHaveLength(220);
    expect(await page.locator(`#timelines div.timeline[data-scenario="${long}"] h3`).count()).toBe(1);
    expect(await page.locator(`#confusion h3`).filter({ hasText: variant }).count()).toBe(1);
    const headings = await rightEdges(page, 'h1, h2, h3');
    expect(headings.right).toBeLessThanOrEqual(headings.page);
    const width = await pageWidth(page);
    expect(width.scroll).toBeLessThanOrEqual(width.client);
  });
});
