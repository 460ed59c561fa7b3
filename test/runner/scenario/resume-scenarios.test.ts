import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ATTR } from '../../../src/spans/conventions.js';
import { ConfigError } from '../../../src/config/errors.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import type { Scenario } from '../../../src/runner/scenario/scenario.js';
import { buildEvidence } from '../../../src/verdicts/index.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { palette } from '../../../src/runner/reporters/format/ansi.js';
import { renderMarkdown } from '../../../src/runner/reporters/md-reporter.js';
import { renderTableReport } from '../../../src/runner/reporters/table-reporter.js';
import { renderJunit } from '../../../src/runner/reporters/junit-reporter.js';
import { findAll, parseXml } from '../reporters/xml-check.js';
import { report as fixtureReportOf, row as fixtureRow } from '../reporters/fixture-report.js';

const ROOT = join(import.meta.dirname, '../../..');
const EXAMPLE = join(ROOT, 'scenarios/coding/resume-approvals.scenarios.yaml');

function load(file: string, root = ROOT): Scenario[] {
  return loadScenarioFile({ file, root }, { agents: new Map() });
}

async function run(scenario: Scenario, onSpans?: (spans: SpanRecord[]) => void) {
  return runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0, onSpans });
}

const WRITE_CHANGELOG = '[{name: write_file, args: {path: CHANGELOG.md, content: "x"}}]';

/** A scenario file on the coding agent whose script makes `calls` (default: one gated write of CHANGELOG.md), then answers. */
function writeScenario(extra: string, calls = WRITE_CHANGELOG): Scenario {
  const dir = tempDir({
    'x.scenario.yaml': `name: write
agent: ${join(ROOT, 'fixtures/agents/coding-agent.yaml')}
inputs: {messages: [{role: user, content: write it}]}
model:
  script:
    - tool_calls: ${calls}
    - text: done
${extra}`,
  });
  return load(join(dir, 'x.scenario.yaml'), dir)[0];
}

describe('scenario resume: the approval round trip in one file', () => {
  it('runs the example: approve lands the write, deny leaves the workspace unchanged, two pauses in order', async () => {
    const scenarios = load(EXAMPLE);
    expect(scenarios.map((scenario) => scenario.resume)).toEqual([
      [{ decision: 'approve' }],
      [{ decision: 'deny' }],
      [{ decision: 'deny' }, { decision: 'approve' }],
    ]);
    const rows = await Promise.all(scenarios.map((scenario) => run(scenario)));
    for (const row of rows) expect(row.status, `${row.id}: ${row.reason}`).toBe('pass');
    expect(rows.map((row) => row.resumes)).toEqual([
      [{ tool: 'write_file', decision: 'approve' }],
      [{ tool: 'write_file', decision: 'deny' }],
      [
        { tool: 'write_file', decision: 'deny' },
        { tool: 'write_file', decision: 'approve' },
      ],
    ]);
    expect(rows[0].test_run).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn', approvals: [{ tool: 'write_file', decision: 'approve' }] });
    expect(rows[2].test_run?.approvals).toEqual([
      { tool: 'write_file', decision: 'deny' },
      { tool: 'write_file', decision: 'approve' },
    ]);
  });

  it('judges the whole run as one trace: one root, no call left pending, the whole transcript', async () => {
    const [, , twoPauses] = load(EXAMPLE);
    let spans: SpanRecord[] = [];
    const row = await run(twoPauses, (given) => (spans = given));
    expect(row.status, row.reason).toBe('pass');
    expect(new Set(spans.map((span) => span.trace_id)).size).toBe(1);
    const evidence = buildEvidence({ spans });
    expect(evidence.incomplete).toBeNull();
    expect(evidence.stop_reason).toBe('end_turn');
    expect(evidence.calls.map((call) => `${call.name}:${call.outcome}`)).toEqual(['write_file:denied', 'write_file:ok']);
    expect(evidence.approvals.map((approval) => approval.decision)).toEqual(['deny', 'approve']);
    expect(evidence.turns).toBe(3);
    expect(row.turns).toBe(3);
  });

  it('keeps the joined trace on one timeline when each resume reads the wall clock earlier than the pause before it', async () => {
    const [, , twoPauses] = load(EXAMPLE);
    // Every read of the wall clock a second earlier than the one before: each segment's root
    // anchors its trace's clock earlier than the segment it continues ran (a wall clock set back
    // between them, or read to the whole millisecond just after a pause).
    let wall = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => (wall -= 1000));
    let spans: SpanRecord[] = [];
    try {
      const row = await run(twoPauses, (given) => (spans = given));
      expect(row.status, row.reason).toBe('pass');
    } finally {
      clock.mockRestore();
    }
    const root = spans.find((span) => span.parent_id === null) as SpanRecord;
    const byId = new Map(spans.map((span) => [span.span_id, span]));
    for (const span of spans) {
      const parent = span.parent_id === null ? undefined : byId.get(span.parent_id);
      if (parent) expect(span.start_ms, span.name).toBeGreaterThanOrEqual(parent.start_ms);
      expect(span.end_ms, span.name).toBeLessThanOrEqual(root.end_ms);
    }
    // By start time (as spans query sorts), the model turns come in the order they ran.
    const chats = spans.filter((span) => span.name.startsWith('chat')).sort((a, b) => a.start_ms - b.start_ms);
    expect(chats.map((span) => span.attributes[ATTR.turn])).toEqual([0, 1, 2]);
    for (let i = 1; i < chats.length; i++) expect(chats[i].start_ms).toBeGreaterThanOrEqual(chats[i - 1].end_ms);
    // The joined run's spans stay in start order, as spans.jsonl writes them.
    expect(spans.every((span, i) => i === 0 || span.start_ms >= spans[i - 1].start_ms)).toBe(true);
  });

  it('keeps a round in call order when its gated calls are answered on resume, as when a policy answers them', async () => {
    // One response: a gated write, an ungated read, a second gated write. The read runs before the
    // pause; each write's answer must still take its own place among the round's results.
    const base = writeScenario(
      `expect:
  checks:
    - tool_order: {before: [list_dir], after: write_file}`,
      '[{name: write_file, args: {path: a.md, content: A}}, {name: list_dir, args: {path: .}}, {name: write_file, args: {path: b.md, content: B}}]',
    );
    const byPolicy = await run({ ...base, approvals: { default: 'approve' } });
    const byResume = await run({ ...base, resume: [{ decision: 'approve' }, { decision: 'approve' }] });
    const toolOrder = (row: typeof byPolicy) => row.transcript?.filter((message) => message.role === 'tool').map((message) => message.tool_call_id);
    expect(toolOrder(byPolicy)).toEqual(['call_1', 'call_2', 'call_3']);
    expect(toolOrder(byResume)).toEqual(toolOrder(byPolicy));
    expect(byResume.test_run?.tools).toEqual(byPolicy.test_run?.tools);
    expect(byResume.test_run?.tools.map((tool) => tool.name)).toEqual(['write_file', 'list_dir']);
    // list_dir (call 2) does not precede the first write_file (call 1): the same verdict both ways.
    expect(byPolicy.checks[0]).toMatchObject({ status: 'fail' });
    expect(byResume.checks[0]).toMatchObject({ status: 'fail', reason: byPolicy.checks[0].reason });
    expect(byPolicy.checks[0].reason).toContain('call 1');
  });

  it("counts the author's whole script after a resume: exhaustion names its real length and call, response ids never repeat", async () => {
    const one = writeScenario('resume: [{decision: approve}]\nexpect: {terminal_tool: write_file}');
    const row = await run({ ...one, script: one.script?.slice(0, 1) });
    expect(row.error).toMatchObject({ type: 'SCRIPT_EXHAUSTED', message: 'script exhausted: the script has 1 entry but the model was called a 2nd time' });
    const spans: SpanRecord[] = [];
    expect((await run(one, (recorded) => spans.push(...recorded))).status).toBe('pass');
    const ids = spans.filter((span) => span.name.startsWith('chat')).map((span) => span.attributes['gen_ai.response.id']);
    expect(ids).toEqual(['scripted-1', 'scripted-2']);
  });

  it('fails a row whose pause is left unanswered, naming the tool', async () => {
    const scenario = writeScenario('resume: [{decision: approve}]');
    // A script that writes twice: the second pause has no answer left.
    scenario.script = [
      { tool_calls: [{ name: 'write_file', args: { path: 'a.md', content: 'a' } }] },
      { tool_calls: [{ name: 'write_file', args: { path: 'b.md', content: 'b' } }] },
      { text: 'done' },
    ];
    const row = await run(scenario);
    expect(row.status).toBe('fail');
    expect(row.reason).toContain('resume: pause 2 (tool write_file) was left unanswered; resume has 1 entry, all used');
    expect(row.resumes).toEqual([{ tool: 'write_file', decision: 'approve' }]);
  });

  it('fails a row whose resume entries are left unused', async () => {
    const row = await run(
      writeScenario(`approvals: {default: approve}
resume: [{decision: deny}]`),
    );
    expect(row.status).toBe('fail');
    expect(row.reason).toContain('resume: resume[0] (deny) unused: the run ended (stop_reason end_turn) after 0 pauses');
    expect(row.resumes).toEqual([]);
  });

  it('fails a mismatched resume under expect_failure too: a broken test is never a caught defect', async () => {
    const unused = await run(writeScenario('expect_failure: the write is denied\nresume: [{decision: approve}, {decision: approve}]'));
    expect(unused.status).toBe('fail');
    expect(unused.reason).toBe('resume: resume[1] (approve) unused: the run ended (stop_reason end_turn) after 1 pause');
    // A failing check beside it is listed after the mismatch, not taken as the expected failure.
    const both = await run(
      writeScenario(
        'expect_failure: the write is denied\nresume: [{decision: approve}, {decision: deny}]\nexpect: {checks: [{file: {path: CHANGELOG.md, exists: false}}]}',
      ),
    );
    expect(both.status).toBe('fail');
    expect(both.reason).toMatch(/^resume: resume\[1\] \(deny\) unused: .*; file#0: expected CHANGELOG\.md not to exist/);
    // The terminal's failure listing leads with the mismatch that failed the row, then the check.
    const text = renderTableReport(fixtureReportOf([both]), palette(false), { columns: 200, quiet: true });
    expect(text).toContain(
      '  ✗ resume: resume[1] (deny) unused: the run ended (stop_reason end_turn) after 1 pause\n  ✗ file#0: expected CHANGELOG.md not to exist',
    );
  });

  it('refuses a resume decision other than approve or deny, with its location', () => {
    let error: unknown;
    try {
      writeScenario('resume: [{decision: maybe}]');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/x\.scenario\.yaml:\d+:\d+ at resume\[0\]\.decision/);
  });
});

describe('reports show each pause and its answer', () => {
  it('in the table and report.md verdict cells', () => {
    const rows = [
      fixtureRow('coding.scenarios.yaml', 'two pauses', {
        resumes: [
          { tool: 'write_file', decision: 'deny' },
          { tool: 'write_file', decision: 'approve' },
        ],
      }),
      fixtureRow('coding.scenarios.yaml', 'no resume'),
    ];
    const table = renderTableReport(fixtureReportOf(rows), palette(false), { columns: 200 });
    expect(table).toContain('pass (resumed write_file: deny, write_file: approve)');
    const md = renderMarkdown(fixtureReportOf(rows));
    expect(md).toContain('| pass (resumed write\\_file: deny, write\\_file: approve) |');
    expect(md).not.toMatch(/no resume.*resumed/);
  });
});

describe('JUnit names what failed a resume mismatch', () => {
  it('gives <failure type="resume">, not "verdict" (no terminal_tool decided anything) nor "unexpected_pass"', async () => {
    const plain = await run(writeScenario('resume: [{decision: approve}, {decision: approve}]'));
    const expected = await run(writeScenario('expect_failure: the write is denied\nresume: [{decision: approve}, {decision: approve}]'));
    const failures = findAll(parseXml(renderJunit(fixtureReportOf([plain, expected]), ROOT)), 'failure');
    expect(failures.map((failure) => [failure.attrs.type, failure.attrs.message])).toEqual([
      ['resume', 'resume: resume[1] (approve) unused: the run ended (stop_reason end_turn) after 1 pause'],
      ['resume', 'resume: resume[1] (approve) unused: the run ended (stop_reason end_turn) after 1 pause'],
    ]);
  });
});
