import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { renderHtml } from '../../src/runner/reporters/html-reporter.js';
import { computeStats } from '../../src/runner/stats/compute-stats.js';
import { EVIL, fixtureSpans, htmlFixtureReport } from '../runner/reporters/html-fixture.js';
import { ROOT, runCli } from './cli.js';
import { hasChromium, launchChromium, openPage, openTestPage } from './html-browser.js';

/** The one browser global the page checks use; tsconfig has no DOM lib (the project targets Node). */
interface BrowserWindow {
  getComputedStyle(element: unknown): { backgroundColor: string };
}

describe('report.html in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  let report: Report;

  let replay: Awaited<ReturnType<typeof runCli>>;
  // The real run's report.html, loaded once, when a test first asks, for the tests that only read
  // it (a load costs Chromium about as much CPU as a whole test): its problems are those of that
  // load and what those reads cause. The tests that click, filter or follow links open their own.
  let shared: ReturnType<typeof openPage> | undefined;
  const sharedReport = () => (shared ??= openPage(browser, join(dir, 'report.html')));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentcheck-html-'));
    // A real run: the toolsets example, replayed offline from its cassettes, two variants x 3
    // repeats. One replay for the example's own test (the first below, run with or without
    // Chromium; toolsets-example.test.ts holds the example's other tests) and the page's tests.
    replay = await runCli(['run', '--config', 'scenarios/toolsets/agentcheck.config.yaml', '--reporter', 'table,json,html', '--out', dir], ROOT, {
      OPENAI_API_KEY: '',
      COLUMNS: '200',
    });
    expect(replay.exitCode, replay.all).toBe(1); // the base variant fails some scenarios by design
    report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    if (hasChromium) browser = await launchChromium();
  });

  afterAll(async () => {
    await shared?.then(
      ({ page }) => page.close(),
      () => undefined,
    );
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scenarios/toolsets (the example) replays offline from the committed cassettes and shows the 13-tool variant beating the 19-tool base', () => {
    // Exit 1 (checked as the run ends, above): the base variant fails some scenarios by design (README.md says so).
    expect(replay.stdout).toContain('72 runs (12 scenarios x 2 variants x 3 repeats)');
    expect(replay.stdout).toMatch(/p vs base/);
    expect(report.scenarios.filter((row) => row.status === 'error').map((row) => row.error)).toEqual([]);
    const tools = (variant: string) => new Set(report.scenarios.filter((r) => r.variant === variant).map((r) => r.test_run!.resolved!.tools.length));
    expect([...tools('base')]).toEqual([19]);
    expect([...tools('lean')]).toEqual([13]);
    const { base, lean } = report.stats!.variants;
    expect(lean.pass_rate!).toBeGreaterThan(base.pass_rate!);
    expect(lean.tool_selection.wrong_tool_calls.per_run!).toBeLessThan(base.tool_selection.wrong_tool_calls.per_run!);
    expect(report.stats!.paired[0].mcnemar_p).toBeLessThan(0.05);
    expect(Object.keys(base.tool_selection.confusion).length).toBeGreaterThan(0);
  });

  it.skipIf(!hasChromium)('loads with no console errors, no page errors and no request beyond the file', async () => {
    const { page, problems } = await sharedReport();
    expect(problems).toEqual({ console: [], errors: [], requests: [] });
    expect(await page.title()).toBe('agentcheck: FAILED');
    for (const id of ['summary', 'matrix', 'pass-rates', 'tool-selection', 'confusion', 'paired', 'failures', 'timelines', 'rows']) {
      expect(await page.locator(`#${id}`).isVisible(), id).toBe(true);
    }
  });

  it.skipIf(!hasChromium)('shows the numbers of report.json, in data- attributes and as visible text', async () => {
    const { page } = await sharedReport();
    const stats = report.stats!;
    const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

    const totals = await page.$$eval('[data-stat]', (boxes) =>
      boxes.map((box) => [box.getAttribute('data-stat'), box.getAttribute('data-value'), box.querySelector('dd')?.textContent]),
    );
    for (const [key, value, text] of totals) {
      expect(Number(value)).toBe(report.summary[key as keyof Report['summary']]);
      expect(text).toBe(value);
    }

    const dots = await page.$$eval('svg.pass-rates g.variant', (groups) =>
      groups.map((g) => ({
        variant: g.getAttribute('data-variant')!,
        rate: Number(g.getAttribute('data-pass-rate')),
        low: Number(g.getAttribute('data-ci-low')),
        high: Number(g.getAttribute('data-ci-high')),
        label: g.querySelector('text.value')?.textContent,
        visible: (g.querySelector('circle') as unknown as { getBBox(): { width: number } } | null)?.getBBox().width ?? 0,
      })),
    );
    expect(dots.map((dot) => dot.variant)).toEqual(Object.keys(stats.variants));
    for (const dot of dots) {
      const s = stats.variants[dot.variant];
      expect([dot.rate, dot.low, dot.high]).toEqual([s.pass_rate, s.pass_rate_ci!.low, s.pass_rate_ci!.high]);
      expect(dot.label).toBe(`${pct(s.pass_rate!)} (${s.passed}/${s.runs})`);
      expect(dot.visible).toBeGreaterThan(0);
    }

    const cells = await page.$$eval('tr[data-variant] td[data-field]', (tds) =>
      tds.map((td) => ({
        section: td.closest('section')!.id,
        variant: td.closest('tr')!.getAttribute('data-variant')!,
        field: td.getAttribute('data-field')!,
        value: td.getAttribute('data-value'),
        text: td.textContent,
      })),
    );
    const cell = (section: string, variant: string, field: string) => cells.find((c) => c.section === section && c.variant === variant && c.field === field)!;
    for (const [variant, s] of Object.entries(stats.variants)) {
      expect(cell('pass-rates', variant, 'pass_rate')).toMatchObject({ value: String(s.pass_rate), text: pct(s.pass_rate!) });
      expect(cell('tool-selection', variant, 'precision')).toMatchObject({ value: String(s.tool_selection.precision), text: pct(s.tool_selection.precision!) });
      expect(cell('tool-selection', variant, 'recall')).toMatchObject({ value: String(s.tool_selection.recall), text: pct(s.tool_selection.recall!) });
      expect(cell('tool-selection', variant, 'wrong_tool_calls_per_run')).toMatchObject({
        value: String(s.tool_selection.wrong_tool_calls.per_run),
        text: s.tool_selection.wrong_tool_calls.per_run!.toFixed(2),
      });
      expect(cell('tool-selection', variant, 'tokens_p95')).toMatchObject({ value: String(s.tokens.total.p95), text: String(s.tokens.total.p95) });
    }
    const [paired] = stats.paired;
    expect(cell('paired', paired.variant, 'mcnemar_p').value).toBe(String(paired.mcnemar_p));
    expect(cell('paired', paired.variant, 'difference').value).toBe(String(paired.difference));

    const confusion = await page.$$eval('table.heat td[data-kind="instead"]', (tds) =>
      tds.map((td) => ({
        variant: td.getAttribute('data-variant')!,
        expected: td.getAttribute('data-expected')!,
        called: td.getAttribute('data-called')!,
        count: Number(td.getAttribute('data-count')),
        text: td.textContent,
        background: (globalThis as unknown as BrowserWindow).getComputedStyle(td).backgroundColor,
      })),
    );
    for (const entry of confusion) {
      const expected = stats.variants[entry.variant].tool_selection.confusion[entry.expected].called_instead[entry.called] ?? 0;
      expect(entry.count).toBe(expected);
      expect(entry.text).toBe(expected ? String(expected) : '');
    }
    // The heat: a larger count is never paler than a smaller one within a variant's map.
    const alpha = (css: string) => Number(/^rgba?\(207, 34, 46(?:, ([\d.]+))?\)$/.exec(css)?.[1] ?? (css.startsWith('rgb(207, 34, 46') ? 1 : 0));
    for (const a of confusion) {
      for (const b of confusion) if (a.variant === b.variant && a.count > b.count) expect(alpha(a.background)).toBeGreaterThan(alpha(b.background));
    }
    expect(confusion.some((entry) => entry.count > 0 && alpha(entry.background) > 0)).toBe(true);

    // One lane per run that has spans; each bar is one tool call of that run.
    const lanes = await page.$$eval('.lane', (divs) =>
      divs.map((div) => ({
        trace: div.getAttribute('data-trace-id'),
        bars: div.querySelectorAll('rect[data-tool]').length,
        width: div.querySelector('svg')!.getBoundingClientRect().width,
      })),
    );
    expect(lanes).toHaveLength(report.scenarios.length);
    for (const lane of lanes) {
      const row = report.scenarios.find((r) => r.test_run?.trace_id === lane.trace)!;
      expect(lane.bars).toBe(row.test_run!.tools.reduce((sum, tool) => sum + tool.called, 0));
      expect(lane.width).toBeGreaterThan(100);
    }
  });

  it.skipIf(!hasChromium)('shows hostile text as text, runs no injected script, and filters rows', async () => {
    const fixture = htmlFixtureReport();
    const byTrace = new Map<string, ReturnType<typeof fixtureSpans>>();
    for (const span of fixtureSpans(fixture)) byTrace.set(span.trace_id, [...(byTrace.get(span.trace_id) ?? []), span]);
    const file = join(dir, 'hostile.html');
    writeFileSync(file, renderHtml(fixture, { byTrace, unreadable: 0 }));
    const { page, problems } = await openTestPage(browser, file);
    expect(problems).toEqual({ console: [], errors: [], requests: [] });
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    const failure = page.locator('li.failure').filter({ hasText: 'onerror' }).first();
    expect(await failure.locator('.reason').first().textContent()).toBe(`${EVIL}\nhttps://example.com/not-a-resource`);
    const tooltip = await page.locator('rect[data-tool="send_email"] title').first().textContent();
    expect(tooltip).toContain(JSON.stringify({ note: EVIL }));

    const total = fixture.scenarios.length;
    expect(await page.locator('#row-count').textContent()).toBe(`${total} of ${total} rows shown`);
    await page.fill('#row-filter', 'onerror');
    expect(await page.locator('#rows-table tbody tr:not(.hidden)').count()).toBe(1);
    await page.fill('#row-filter', '');
    await page.check('#row-failing');
    const failing = fixture.scenarios.filter((r) => r.status === 'fail' || r.status === 'error').length;
    expect(await page.locator('#rows-table tbody tr:not(.hidden)').count()).toBe(failing);
  });

  it.skipIf(!hasChromium)('matrix: each cell links to its run, whose transcript opens, even past an active filter', async () => {
    const { page, problems } = await openTestPage(browser, join(dir, 'report.html'));
    const ids = [...new Set(report.scenarios.map((row) => row.id))];
    expect(await page.locator('#matrix tbody tr').count()).toBe(ids.length);
    expect(await page.locator('#matrix tbody td.cell').count()).toBe(ids.length * report.suite.variants.length);
    // The lean variant's head shows the delta the config gave it, as report.json records it.
    const lean = page.locator('#matrix thead th[data-variant="lean"]');
    await lean.locator('details.delta summary').click();
    expect(JSON.parse((await lean.locator('details.delta pre').textContent())!)).toEqual(report.suite.variant_deltas!.lean);
    expect(await lean.locator('details.delta pre').isVisible()).toBe(true);

    // A failing run: hide it with the filter first, then follow its link from the matrix.
    const index = report.scenarios.findIndex((row) => row.status === 'fail');
    const failing = report.scenarios[index];
    await page.fill('#row-filter', 'no run has this text');
    expect(await page.locator(`#run-${index}`).isVisible()).toBe(false);
    await page.locator(`#matrix a.run-link[data-row-index="${index}"]`).click();
    await page.waitForFunction((id) => (globalThis as unknown as { location: { hash: string } }).location.hash === `#${id}`, `run-${index}`);
    const target = page.locator(`#run-${index}`);
    await target.locator('details.transcript[open]').waitFor();
    expect(await target.isVisible()).toBe(true);
    expect(await target.getAttribute('data-row-id')).toBe(failing.id);
    expect(await target.getAttribute('data-variant')).toBe(failing.variant);
    expect(await target.getAttribute('data-repeat')).toBe(String(failing.repeat));
    const messages = target.locator('details.transcript li.msg');
    expect(await messages.count()).toBe(Math.min(failing.transcript!.length, 100));
    expect(await messages.first().isVisible()).toBe(true);
    expect(
      await target.evaluate((row) => {
        const box = row.getBoundingClientRect();
        return box.bottom > 0 && box.top < (globalThis as unknown as { innerHeight: number }).innerHeight;
      }),
    ).toBe(true);
    expect(problems).toEqual({ console: [], errors: [], requests: [] });
  });

  it.skipIf(!hasChromium)('a link to the run already in the address bar clears the filter again and reopens the transcript', async () => {
    const { page, problems } = await openTestPage(browser, join(dir, 'report.html'));
    const index = report.scenarios.findIndex((row) => row.status === 'fail');
    const link = page.locator(`#matrix a.run-link[data-row-index="${index}"]`);
    const target = page.locator(`#run-${index}`);
    await link.click();
    await target.locator('details.transcript[open]').waitFor();
    // The hash stays #run-N from here on, so the second click fires no hashchange.
    await target.locator('details.transcript > summary').click();
    await page.fill('#row-filter', 'no run has this text');
    expect(await page.locator('#rows-table tbody tr:not(.hidden)').count()).toBe(0);
    await link.click();
    await target.locator('details.transcript[open]').waitFor();
    expect(await target.isVisible()).toBe(true);
    expect(await page.inputValue('#row-filter')).toBe('');
    expect(await page.locator('#rows-table tbody tr:not(.hidden)').count()).toBe(Math.min(report.scenarios.length, 1000));
    expect(problems).toEqual({ console: [], errors: [], requests: [] });
  });

  it.skipIf(!hasChromium)('the matrix and the paired table fit a 1024-pixel page, also with very long names', async () => {
    const long = (prefix: string) => `${prefix}-${'averyveryverylongnamewithoutanybreaks'.repeat(3)}`;
    const fixture = htmlFixtureReport();
    const rows = fixture.scenarios.map((row) => ({
      ...row,
      id: row.id.replace('refund ok', long('refund')),
      variant: row.variant === 'terse' ? long('terse') : row.variant,
    }));
    const wide: Report = {
      ...fixture,
      scenarios: rows,
      suite: { ...fixture.suite, variants: ['base', long('terse')], variant_deltas: { [long('terse')]: { set: { agent: { instructions: long('text') } } } } },
    };
    wide.stats = computeStats(wide);
    const file = join(dir, 'wide.html');
    writeFileSync(file, renderHtml(wide));
    // The real run on the shared page, resized to 1024 pixels for this test and back after it (the
    // page's layout is CSS only: no script reads the width); the long names on a page of their own.
    const real = await sharedReport();
    const size = real.page.viewportSize()!;
    await real.page.setViewportSize({ width: 1024, height: 800 });
    onTestFinished(() => real.page.setViewportSize(size));
    for (const [name, { page, problems }] of [
      ['real run', real],
      ['long names', await openTestPage(browser, file, { width: 1024, height: 800 })],
    ] as const) {
      expect(problems, name).toEqual({ console: [], errors: [], requests: [] });
      for (const table of ['table.matrix', 'table.paired']) {
        const fit = await page.locator(table).evaluate((element) => {
          const box = element.getBoundingClientRect();
          return {
            right: box.right,
            page: (element.ownerDocument as unknown as { documentElement: { clientWidth: number } }).documentElement.clientWidth,
            scroll: element.scrollWidth,
            client: element.clientWidth,
          };
        });
        expect(fit.page, name).toBe(1024);
        expect(fit.right, `${name} ${table}`).toBeLessThanOrEqual(fit.page);
        expect(fit.scroll, `${name} ${table}`).toBeLessThanOrEqual(fit.client + 1);
      }
    }
  });
});
