import { join, relative, resolve, sep } from 'node:path';
import { isResumeMismatch } from '../report/resume-mismatch.js';
import type { Report, ScenarioRow } from '../report/report.js';
import { ScenarioLines } from '../report/scenario-lines.js';
import { writeFileAtomic } from '../report/write-atomic.js';
import { missingShardsNote } from './format/missing-shards-note.js';
import { rowReason } from './format/row-cells.js';
import { capitalized, strayErrorsNote } from './format/stray-errors-note.js';
import { toolCallLines } from './format/tool-call-lines.js';
import { xmlAttr, xmlEscape } from './format/xml-escape.js';
import type { Reporter, ReporterContext } from './reporter.js';

/** The JUnit file's name inside the output folder. */
export const JUNIT_REPORT_FILE = 'junit.xml';

/** Writes OUT/junit.xml: a testsuite per scenario file, a testcase per scenario x variant x repeat. */
export class JunitReporter implements Reporter {
  readonly name = 'junit';
  readonly file = JUNIT_REPORT_FILE;

  async onRunEnd(report: Readonly<Report>, ctx: ReporterContext): Promise<void> {
    await writeFileAtomic(join(ctx.out, JUNIT_REPORT_FILE), renderJunit(report, ctx.cwd ?? process.cwd()));
  }
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  ms: number;
}

/**
 * The JUnit XML as a string; file paths are made relative to `cwd`. Elements and attributes
 * follow the Jenkins JUnit schema, plus `file` and `line` on each testcase (as pytest and GitLab
 * read them); docs/ci.md lists them.
 */
export function renderJunit(report: Readonly<Report>, cwd: string): string {
  const byFile = new Map<string, ScenarioRow[]>();
  for (const row of report.scenarios) {
    const list = byFile.get(row.file);
    if (list) list.push(row);
    else byFile.set(row.file, [row]);
  }
  const suites: string[] = [];
  const total = emptyCounts();
  const lines = new ScenarioLines();
  // Ant's form: ISO 8601 without a zone (the value is UTC, as report.started_at).
  const timestamp = report.started_at.slice(0, 19);
  for (const [file, rows] of byFile) {
    const counts = emptyCounts();
    for (const row of rows) add(counts, row);
    add(total, ...rows);
    const name = relative(cwd, resolve(cwd, file)).split(sep).join('/') || file;
    suites.push(
      `  <testsuite name="${xmlAttr(name)}" ${countAttrs(counts)} skipped="${counts.skipped}" time="${seconds(counts.ms)}" timestamp="${xmlAttr(timestamp)}" file="${xmlAttr(name)}">`,
    );
    for (const row of rows) suites.push(testcase(row, name, lines.lineOf(resolve(cwd, file), row.name)));
    suites.push('  </testsuite>');
  }
  // Stray errors, missing shards and an interruption fail the run (exit 1) though every row may pass: an errored
  // testcase of their own says so, as pytest lists an error outside any test, so the file agrees
  // with the exit code.
  const runErrors = runErrorCases(report);
  if (runErrors.length) {
    total.tests += runErrors.length;
    total.errors += runErrors.length;
    suites.push(...agentcheckSuite(runErrors, timestamp));
  }
  // The root time is the run's wall time; a suite's is the sum of its rows (they ran concurrently).
  // The root has no `skipped`: the Jenkins schema does not allow it there (each suite has one).
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agentcheck" ${countAttrs(total)} time="${seconds(report.duration_ms)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

interface RunErrorCase {
  name: string;
  type: string;
  message: string;
}

/** What failed the run outside its rows: its stray errors, the shards a merge lacks, an interruption (docs/report-format.md). */
function runErrorCases(report: Readonly<Report>): RunErrorCase[] {
  const cases: RunErrorCase[] = [];
  if (report.stray_errors) cases.push({ name: 'stray errors', type: 'STRAY_ERROR', message: capitalized(strayErrorsNote(report.stray_errors)) });
  const missing = missingShardsNote(report);
  if (missing) cases.push({ name: 'missing shards', type: 'missing_shards', message: capitalized(missing) });
  // Its unreached rows are only skipped testcases: without this the file reads green.
  if (report.interrupted) {
    const notRun = report.summary.not_run;
    cases.push({
      name: 'interrupted',
      type: 'interrupted',
      message: `The run was interrupted: ${notRun} row${notRun === 1 ? '' : 's'} not run (skipped testcases here)`,
    });
  }
  return cases;
}

/** The `agentcheck` testsuite holding one errored testcase per run error. */
function agentcheckSuite(cases: readonly RunErrorCase[], timestamp: string): string[] {
  return [
    `  <testsuite name="agentcheck" tests="${cases.length}" failures="0" errors="${cases.length}" skipped="0" time="0.000" timestamp="${xmlAttr(timestamp)}">`,
    ...cases.flatMap((error) => [
      `    <testcase name="${xmlAttr(error.name)}" classname="agentcheck" time="0.000">`,
      `      <error message="${xmlAttr(error.message)}" type="${xmlAttr(error.type)}">${xmlEscape(error.message)}</error>`,
      '    </testcase>',
    ]),
    '  </testsuite>',
  ];
}

function testcase(row: ScenarioRow, file: string, line: number | undefined): string {
  const name = `${row.name} [${row.variant}]${row.repeat > 0 ? ` #${row.repeat}` : ''}`;
  const where = `file="${xmlAttr(file)}"${line === undefined ? '' : ` line="${line}"`}`;
  const open = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(fileIdOf(row))}" time="${seconds(row.duration_ms)}" ${where}`;
  const reason = rowReason(row);
  switch (row.status) {
    case 'pass':
      // An expected failure that failed as expected is a pass; say why in the output CI keeps.
      if (!row.expect_failure) return `${open}/>`;
      return `${open}>\n      <system-out>${xmlEscape(`expect_failure: ${row.expect_failure}\n${reason}`)}</system-out>\n    </testcase>`;
    case 'fail':
      return `${open}>\n      <failure message="${xmlAttr(reason)}" type="${xmlAttr(failureType(row))}">${xmlEscape(failureBody(row))}</failure>\n    </testcase>`;
    case 'error': {
      const type = row.error?.type ?? 'ERROR';
      const message = row.error?.message ?? reason;
      return `${open}>\n      <error message="${xmlAttr(message)}" type="${xmlAttr(type)}">${xmlEscape(failureBody(row))}</error>\n    </testcase>`;
    }
    default:
      return `${open}>\n      <skipped message="${xmlAttr(reason)}"/>\n    </testcase>`;
  }
}

/** The verdict line, each check that did not pass, and the trace id to look the run up by. */
function failureBody(row: ScenarioRow): string {
  const reason = rowReason(row);
  const lines: string[] = [reason];
  if (row.expect_failure) lines.push(`expect_failure: ${row.expect_failure}`);
  if (row.test_run) lines.push(`verdict: ${row.test_run.verdict} (${row.test_run.verdict_reason})`);
  for (const check of row.checks) {
    if (check.status !== 'pass') lines.push(`${check.status} ${check.id}: ${check.reason}`);
  }
  if (row.test_run) lines.push(...toolCallLines(row.test_run));
  if (row.error && !reason.includes(row.error.message)) lines.push(`error ${row.error.type}: ${row.error.message}`);
  if (row.test_run?.trace_id) lines.push(`trace_id: ${row.test_run.trace_id}`);
  return lines.join('\n');
}

/** What failed: the resume list (it fails the row first, also under expect_failure), an expected failure that passed, a check, else the verdict. */
function failureType(row: ScenarioRow): string {
  if (isResumeMismatch(row)) return 'resume';
  if (row.expect_failure) return 'unexpected_pass';
  return row.checks.some((check) => check.status === 'fail') ? 'check_failed' : 'verdict';
}

/** The id's file part: the id is `<file id>#<name>`, and a name may itself contain '#'. */
function fileIdOf(row: ScenarioRow): string {
  const suffix = `#${row.name}`;
  if (row.id.endsWith(suffix)) return row.id.slice(0, -suffix.length);
  const hash = row.id.indexOf('#');
  return hash < 0 ? row.id : row.id.slice(0, hash);
}

function emptyCounts(): Counts {
  return { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
}

function add(counts: Counts, ...rows: ScenarioRow[]): void {
  for (const row of rows) {
    counts.tests++;
    counts.ms += row.duration_ms;
    if (row.status === 'fail') counts.failures++;
    else if (row.status === 'error') counts.errors++;
    else if (row.status === 'not_run' || row.status === 'skipped') counts.skipped++;
  }
}

function countAttrs(counts: Counts): string {
  return `tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}"`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
