import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JunitReporter, renderJunit } from '../../../src/runner/reporters/junit-reporter.js';
import { captureStream, fixtureReport, NASTY_REASON, report, row, stripAnsi, tempOut } from './fixture-report.js';
import { junitSchemaProblems } from './junit-schema.js';
import { findAll, parseXml } from './xml-check.js';
import { tempDir } from '../../helpers/temp-dir.js';

function hasXmllint(): boolean {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('JunitReporter', () => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(() => cleanup());

  async function writeFixture(): Promise<{ file: string; xml: string }> {
    const out = await tempOut();
    cleanup = out.cleanup;
    await new JunitReporter().onRunEnd(fixtureReport(), { out: out.dir, stdout: captureStream().stream, color: false, cwd: '/work/project' });
    const file = join(out.dir, 'junit.xml');
    return { file, xml: await readFile(file, 'utf8') };
  }

  it('writes well-formed XML with one testsuite per file and the right counts', async () => {
    const { xml } = await writeFixture();
    const root = parseXml(xml);
    expect(root.name).toBe('testsuites');
    expect(root.attrs).toMatchObject({ tests: '10', failures: '2', errors: '1', time: '3.210' });
    expect(root.attrs).not.toHaveProperty('skipped');
    const suites = findAll(root, 'testsuite');
    expect(suites.map((s) => s.attrs.name)).toEqual(['support/refund.scenario.yaml', 'flows/flow.scenarios.yaml']);
    expect(suites[0].attrs).toMatchObject({
      tests: '4',
      failures: '1',
      errors: '0',
      skipped: '0',
      time: '0.048',
      timestamp: '2025-01-02T03:04:05',
      file: 'support/refund.scenario.yaml',
    });
    expect(suites[1].attrs).toMatchObject({ tests: '6', failures: '1', errors: '1', skipped: '2' });
    expect(findAll(root, 'testcase')).toHaveLength(10);
  });

  it('names testcases `<name> [<variant>]` (+ ` #<repeat>`) with the file id as classname', async () => {
    const root = parseXml((await writeFixture()).xml);
    const cases = findAll(root, 'testcase');
    expect(cases.slice(0, 4).map((c) => c.attrs.name)).toEqual(['refund ok [base]', 'refund ok [base] #1', 'refund ok [terse]', 'refund ok [terse] #1']);
    expect(cases[0].attrs.classname).toBe('support/refund.scenario.yaml');
    expect(cases[0].attrs.time).toBe('0.012');
  });

  it('escapes the failure message and body, keeping the newline and dropping colour codes', async () => {
    const root = parseXml((await writeFixture()).xml);
    const failure = findAll(root, 'failure')[0];
    const withoutEsc = stripAnsi(NASTY_REASON);
    expect(failure.attrs.message).toBe(withoutEsc);
    expect(failure.text).toContain(withoutEsc);
    expect(failure.text).toContain('verdict: incomplete (create_refund was never called)');
    expect(failure.text).toContain('fail tool_returned#1: create_refund: expected a result <none> & nothing');
    expect(failure.text).not.toContain('tool_called#0');
  });

  it('maps errors, skipped, not run, expected failures and unexpected passes', async () => {
    const root = parseXml((await writeFixture()).xml);
    const byName = new Map(findAll(root, 'testcase').map((c) => [c.attrs.name, c]));
    const error = byName.get('flow crash [base]')!.children[0];
    expect(error).toMatchObject({ name: 'error', attrs: { type: 'MODEL_FAILED', message: 'script exhausted after 2 turns' } });
    expect(byName.get('not reached [base]')!.children[0]).toMatchObject({ name: 'skipped', attrs: { message: 'not run: the suite was interrupted' } });
    expect(byName.get('skipped one [base]')!.children[0]).toMatchObject({ name: 'skipped', attrs: { message: 'skipped (flaky upstream)' } });
    const xfail = byName.get('demonstrates defect [base]')!;
    expect(xfail.children.map((c) => c.name)).toEqual(['system-out']);
    expect(xfail.children[0].text).toContain('expect_failure: refunds twice');
    const unexpected = byName.get('fixed defect [base]')!.children[0];
    expect(unexpected).toMatchObject({ name: 'failure', attrs: { type: 'unexpected_pass', message: 'unexpected pass: every check passed' } });
  });

  it('gives an interrupted run an errored testcase of its own, so the file fails as the run does (exit 1)', () => {
    const cut = report([
      row('a.scenario.yaml', 'done'),
      row('a.scenario.yaml', 'not reached', { status: 'not_run', reason: 'not run: the suite was interrupted' }),
    ]);
    cut.interrupted = true;
    const root = parseXml(renderJunit(cut, '/work/project'));
    expect(root.attrs).toMatchObject({ tests: '3', failures: '0', errors: '1' });
    const suite = findAll(root, 'testsuite').find((s) => s.attrs.name === 'agentcheck')!;
    expect(suite.attrs).toMatchObject({ tests: '1', errors: '1' });
    expect(findAll(suite, 'error')[0].attrs).toEqual({
      type: 'interrupted',
      message: 'The run was interrupted: 1 row not run (skipped testcases here)',
    });
    expect(junitSchemaProblems(root)).toEqual([]);
    // A run that was not cut short has no such testcase.
    cut.interrupted = false;
    expect(findAll(parseXml(renderJunit(cut, '/work/project')), 'testsuite').map((s) => s.attrs.name)).toEqual(['a.scenario.yaml']);
  });

  it('escapes names and strips characters XML 1.0 forbids everywhere', () => {
    const nasty = report([row('a&b/<x>.scenario.yaml', 'it\'s "odd" \u0000\uFFFF\uD800', { status: 'error', error: { type: 'A<B', message: 'm\u0007' } })]);
    const root = parseXml(renderJunit(nasty, '/work/project'));
    const testcase = findAll(root, 'testcase')[0];
    expect(testcase.attrs.name).toBe('it\'s "odd"  [base]');
    expect(testcase.attrs.classname).toBe('a&b/<x>.scenario.yaml');
    expect(testcase.children[0].attrs).toEqual({ message: 'm', type: 'A<B' });
  });

  it('keeps a name with line breaks whole in the testcase name, as a character reference', () => {
    const inject = 'a\n# agentcheck: PASSED\n[click](https://evil.test)';
    const xml = renderJunit(report([row('x.scenario.yaml', inject, { status: 'fail', reason: 'no' })]), '/work/project');
    expect(xml).toContain('name="a&#10;# agentcheck: PASSED&#10;[click](https://evil.test) [base]"');
    expect(findAll(parseXml(xml), 'testcase')[0].attrs.name).toBe(`${inject} [base]`);
  });

  it('conforms to the Jenkins JUnit schema (with file and line on testcases)', async () => {
    const root = parseXml((await writeFixture()).xml);
    expect(junitSchemaProblems(root)).toEqual([]);
    expect(findAll(root, 'testcase').every((c) => c.attrs.file === c.attrs.classname)).toBe(true);
    // The rules do catch what the schema forbids: the `skipped` count 0.1 put on the root.
    expect(junitSchemaProblems({ ...root, attrs: { ...root.attrs, skipped: '2' } })).toEqual(['testsuites: attribute "skipped" is not allowed']);
  });

  it('documents an example that conforms to the same schema (no skipped count on <testsuites>)', async () => {
    const doc = await readFile(join(import.meta.dirname, '../../../docs/report-format.md'), 'utf8');
    const example = /## JUnit \(`junit`\)[\s\S]*?```xml\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const root = parseXml(example ?? '');
    expect(junitSchemaProblems(root)).toEqual([]);
    expect(root.attrs).not.toHaveProperty('skipped');
  });

  it('lists the tool calls, numbered, with their outcomes in the failure text', async () => {
    const root = parseXml((await writeFixture()).xml);
    const failure = findAll(root, 'failure')[0];
    expect(failure.text).toContain('tool calls (stop_reason: end_turn):\n  1. lookup_order x2 (2 returned)');
  });

  it('gives each testcase the line where its scenario starts in its file', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'multi.scenarios.yaml'),
      'defaults:\n  agent: a.yaml\nscenarios:\n  - name: first\n    inputs: {}\n  # a comment\n  - name: second\n',
    );
    writeFileSync(join(dir, 'one.scenario.yaml'), '# leading comment\n\nname: only\nagent: a.yaml\n');
    const at = (file: string, name: string) => row(file, name, { file: join(dir, file) });
    const xml = renderJunit(
      report([at('multi.scenarios.yaml', 'first'), at('multi.scenarios.yaml', 'second'), at('one.scenario.yaml', 'only'), at('gone.scenario.yaml', 'lost')]),
      dir,
    );
    const cases = findAll(parseXml(xml), 'testcase');
    expect(cases.map((c) => [c.attrs.file, c.attrs.line])).toEqual([
      ['multi.scenarios.yaml', '4'],
      ['multi.scenarios.yaml', '7'],
      ['one.scenario.yaml', '3'],
      ['gone.scenario.yaml', undefined],
    ]);
  });

  it('writes an empty but valid file for a run with no rows', () => {
    const root = parseXml(renderJunit(report([]), '/'));
    expect(root.attrs.tests).toBe('0');
    expect(root.children).toEqual([]);
  });

  it.skipIf(!hasXmllint())('passes xmllint --noout', async () => {
    const { file } = await writeFixture();
    execFileSync('xmllint', ['--noout', file]);
  });
  if (!hasXmllint()) console.info('junit-reporter.test: xmllint not found; the built-in well-formedness check ran instead');
});
