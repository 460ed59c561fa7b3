import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GithubActionsReporter, githubAnnotations, MAX_ANNOTATIONS } from '../../../src/runner/reporters/github-actions-reporter.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { bigReport, captureStream, report, row } from './fixture-report.js';

describe('GitHub Actions annotations and job summary', () => {
  it('annotates at most the 10 failures GitHub shows per step, then one warning counting the rest', () => {
    const commands = githubAnnotations(bigReport(12, 1), '/repo');
    expect(MAX_ANNOTATIONS).toBe(10);
    expect(commands.filter((line) => line.startsWith('::error '))).toHaveLength(10);
    expect(commands.at(-1)).toBe('::warning title=agentcheck::2 more failing or errored rows are not annotated; see the job summary or report.json');
  });

  it("starts the summary on a line of its own after an earlier step's summary without a final newline", async () => {
    const dir = tempDir({ 'summary.md': '| a | b |\n|---|---|\n| 1 | 2 |' });
    const summary = join(dir, 'summary.md');
    await new GithubActionsReporter({ GITHUB_STEP_SUMMARY: summary }).onRunEnd(bigReport(3, 1), {
      out: dir,
      stdout: captureStream().stream,
      color: false,
      cwd: dir,
    });
    expect(readFileSync(summary, 'utf8')).toMatch(/^\| 1 \| 2 \|\n# agentcheck: FAILED\n/m);
    // A summary that ends its line gets no blank line added.
    writeFileSync(summary, 'earlier\n');
    await new GithubActionsReporter({ GITHUB_STEP_SUMMARY: summary }).onRunEnd(bigReport(3, 1), {
      out: dir,
      stdout: captureStream().stream,
      color: false,
      cwd: dir,
    });
    expect(readFileSync(summary, 'utf8').startsWith('earlier\n# agentcheck: FAILED\n')).toBe(true);
  });

  it('keeps a name with line breaks to one line in the annotation title and on its own line in the job summary', async () => {
    const inject = 'a\n# agentcheck: PASSED\n[click](https://evil.test)';
    const failing = report([row('x.scenario.yaml', inject, { status: 'fail', reason: 'no' })]);
    const [command] = githubAnnotations(failing, '/work/project');
    expect(command).toContain(',title=failed%3A a # agentcheck%3A PASSED [click](https%3A//evil.test) [base]::no%0A');
    const dir = tempDir({});
    const summary = join(dir, 'summary.md');
    await new GithubActionsReporter({ GITHUB_STEP_SUMMARY: summary }).onRunEnd(failing, { out: dir, stdout: captureStream().stream, color: false, cwd: dir });
    const headings = readFileSync(summary, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#'));
    expect(headings).toEqual(['# agentcheck: FAILED', '## Failures and errors (1)', '## All rows']);
  });
});
