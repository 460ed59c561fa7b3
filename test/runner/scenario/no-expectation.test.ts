import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { palette } from '../../../src/runner/reporters/format/ansi.js';
import { summaryLine } from '../../../src/runner/reporters/format/summary-line.js';
import { renderMarkdown } from '../../../src/runner/reporters/md-reporter.js';
import { renderTableReport } from '../../../src/runner/reporters/table-reporter.js';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { report, row } from '../reporters/fixture-report.js';

const AGENT = 'id: bot\nagent:\n  name: Bot\n  tools: [{name: label_issue, returns: {ok: true}}]\n';

async function runOne(expectYaml: string) {
  const dir = tempDir({
    'agent.yaml': AGENT,
    'a.scenario.yaml': `name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel:\n  script:\n    - tool_calls: [{name: label_issue}]\n    - text: done\n${expectYaml}`,
  });
  const [scenario] = loadScenarioFile({ file: join(dir, 'a.scenario.yaml'), root: dir }, { agents: new Map() });
  return runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
}

describe('a scenario with no expectation says so', () => {
  it('its row passes, is flagged no_expectation, and its reason says nothing was tested', async () => {
    const result = await runOne('');
    expect(result.status).toBe('pass');
    expect(result.no_expectation).toBe(true);
    expect(result.test_run?.verdict).toBe('unconfirmed');
    expect(result.reason).toMatch(/^no expectation: the scenario sets no terminal_tool, verdict or checks/);
  });

  it('a scenario with any expectation is not flagged', async () => {
    expect((await runOne('expect: {checks: [{tool_called: {tool: label_issue}}]}\n')).no_expectation).toBeUndefined();
    expect((await runOne('expect: {verdict: unconfirmed}\n')).no_expectation).toBeUndefined();
  });

  it('the table, markdown and summary line show "no expectation" instead of a bare PASS', () => {
    const rows = [row('a.scenario.yaml', 'empty', { no_expectation: true }), row('a.scenario.yaml', 'real')];
    const rendered = report(rows);
    expect(summaryLine(rendered)).toMatch(/2 scenarios: 2 passed \(1 with no expectation\), 0 failed/);
    expect(renderTableReport(rendered, palette(false), { columns: 200 })).toContain('PASS (no expectation)');
    expect(renderMarkdown(rendered)).toContain('PASS (no expectation)');
  });
});
