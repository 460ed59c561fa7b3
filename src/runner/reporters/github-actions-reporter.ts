import { fullReportPlace } from './format/all-rows-hint.js';
import { appendFile, open } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { realPathOf } from '../files/walk-files.js';
import type { Report, ScenarioRow } from '../report/report.js';
import { ScenarioLines } from '../report/scenario-lines.js';
import { escapeData, escapeProperty } from '../ci/workflow-command-text.js';
import { missingShardsNote } from './format/missing-shards-note.js';
import { printable } from './format/printable.js';
import { capitalized, strayErrorsNote } from './format/stray-errors-note.js';
import { isFailing, oneLine, rowReason } from './format/row-cells.js';
import { renderMarkdown } from './md-reporter.js';
import type { Reporter, ReporterContext } from './reporter.js';

/** GitHub shows at most 10 error annotations per step (50 per job); more would be dropped unseen. */
export const MAX_ANNOTATIONS = 10;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * On GitHub Actions: one `::error file=...,line=...::` workflow command per failing row, on the
 * scenario's file and line, and the Markdown report appended to $GITHUB_STEP_SUMMARY. Added by
 * the CLI when GITHUB_ACTIONS=true, whatever --reporter says (docs/ci.md).
 */
export class GithubActionsReporter implements Reporter {
  readonly name = 'github-actions';

  constructor(private readonly env: Env) {}

  async onRunEnd(report: Readonly<Report>, ctx: ReporterContext): Promise<void> {
    const cwd = ctx.cwd ?? process.cwd();
    // GitHub reads an annotation's file from the repository root, not the step's working-directory.
    const workspace = this.env.GITHUB_WORKSPACE;
    const commands = githubAnnotations(report, cwd, workspace ? resolve(cwd, workspace) : undefined);
    if (commands.length) ctx.stdout.write(`${commands.join('\n')}\n`);
    const summary = this.env.GITHUB_STEP_SUMMARY;
    if (summary) await appendFile(summary, `${(await endsWithNewline(summary)) ? '' : '\n'}${renderMarkdown(report, fullReportPlace(ctx.files))}\n`);
  }
}

/**
 * The workflow commands for the report's stray errors and missing shards (first: they fail the run
 * whatever its rows say) and its failing rows (errors and failures), at most MAX_ANNOTATIONS.
 */
export function githubAnnotations(report: Readonly<Report>, cwd: string, repositoryRoot?: string): string[] {
  const lines = new ScenarioLines();
  const missing = missingShardsNote(report);
  const notes = [...(report.stray_errors ? [strayErrorsNote(report.stray_errors)] : []), ...(missing ? [missing] : [])];
  const commands = notes.map((note) => `::error title=agentcheck::${escapeData(printable(capitalized(note)))}`);
  const room = MAX_ANNOTATIONS - commands.length;
  const failing = report.scenarios.filter(isFailing);
  commands.push(...failing.slice(0, room).map((row) => annotation(row, cwd, lines, repositoryRoot)));
  if (failing.length > room) {
    commands.push(
      `::warning title=agentcheck::${escapeData(`${failing.length - room} more failing or errored rows are not annotated; see the job summary or report.json`)}`,
    );
  }
  return commands;
}

function annotation(row: ScenarioRow, cwd: string, lines: ScenarioLines, repositoryRoot?: string): string {
  const absolute = resolve(cwd, row.file);
  // Relative to the repository ($GITHUB_WORKSPACE) when the file is inside it, else to the current
  // folder. Both through their real paths: a workspace reached through a link (macOS /tmp, a
  // linked volume) still holds the files of the real folder the step runs in.
  const realRoot = repositoryRoot && realPathOf(repositoryRoot);
  const realFile = realPathOf(absolute);
  const inRepository = realRoot !== undefined && isInsideFolder(realRoot, realFile);
  const file = (inRepository ? relative(realRoot, realFile) : relative(cwd, absolute)).split(sep).join('/');
  const line = lines.lineOf(absolute, row.name);
  // The title and message are printable() as in every other human-readable output: the log
  // viewer would otherwise colour or reorder them at the scenario's will (docs/report-format.md).
  // The title is one line, so a line break in the name becomes a space (docs/ci.md).
  const title = oneLine(`${row.status === 'error' ? 'error' : 'failed'}: ${row.name} [${row.variant}]${row.repeat > 0 ? ` #${row.repeat}` : ''}`);
  const properties = [`file=${escapeProperty(file)}`, ...(line === undefined ? [] : [`line=${line}`]), `title=${escapeProperty(title)}`];
  const verdict = row.test_run ? `\nverdict: ${row.test_run.verdict} (${row.test_run.verdict_reason})` : '';
  return `::error ${properties.join(',')}::${escapeData(printable(`${rowReason(row)}${verdict}`))}`;
}

/** Whether the summary file is empty or ends a line: an earlier step's last line must not swallow the heading. */
async function endsWithNewline(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } catch {
    // Missing (appendFile creates it) or unreadable (appendFile says why).
    return true;
  } finally {
    await handle?.close();
  }
}
