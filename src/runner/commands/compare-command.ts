import { compareReports, type ComparedScenario } from '../compare/compare-reports.js';
import { describeTrajectoryChange } from '../compare/describe-trajectory.js';
import { clip, oneLine } from '../reporters/format/row-cells.js';
import { readReportFile } from '../merge/read-report-file.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';

/** Longest head reason printed under a regression; `--json` keeps it whole. */
const REASON_MAX = 300;

/**
 * `agentcheck compare BASE.json HEAD.json`: exit 1 when any scenario regressed, either run was
 * interrupted or is a merge missing shards, or the head shares none of the base's results.
 */
export async function compareCommand(base: string, head: string, options: { json?: boolean }, io: CommandIO): Promise<number> {
  let comparison;
  let incomplete: string[];
  try {
    // The reader `merge` uses: a row that is not a report row is a located error (exit 2), never a crash.
    const [baseReport, headReport] = [readReportFile(base, io.cwd), readReportFile(head, io.cwd)];
    comparison = compareReports(baseReport, headReport);
    incomplete = [...(baseReport.interrupted ? [`${base} (base)`] : []), ...(headReport.interrupted ? [`${head} (head)`] : [])];
  } catch (error) {
    return reportError(error, io);
  }
  // An interrupted run's not_run rows are no results: a gate must not pass on a run that mostly did not happen.
  if (incomplete.length) {
    io.stderr.write(
      `agentcheck: ${incomplete.join(' and ')} ${incomplete.length > 1 ? 'were interrupted: their' : 'was interrupted: its'} not_run rows are not results, so this comparison is incomplete (exit 1)\n`,
    );
  }
  // A merge that lacks shards (an upload that failed) is as incomplete: their scenarios are simply absent.
  const missing = (['base', 'head'] as const).filter((which) => comparison.missing_shards[which].length);
  for (const which of missing) {
    const shards = comparison.missing_shards[which];
    io.stderr.write(
      `agentcheck: ${which === 'base' ? base : head} (${which}) is a merge missing shard${shards.length > 1 ? 's' : ''} ${shards.join(', ')}: their scenarios are not results, so this comparison is incomplete (exit 1)\n`,
    );
  }
  // Two unrelated reports (another suite, another run root, an empty shard) must not read as "no regression".
  if (comparison.nothing_shared) {
    io.stderr.write(
      `agentcheck: ${head} shares no scenario x variant with ${base}, so nothing was compared (exit 1): compare runs of the same suite made from the same folder (scenario ids are relative to the run root, docs/formats.md)\n`,
    );
  }
  if (options.json) {
    io.stdout.write(`${JSON.stringify(comparison, null, 2)}\n`);
  } else {
    const line = (i: ComparedScenario) =>
      `  ${oneLine(i.key)}: ${i.base ?? '-'} -> ${i.head ?? '-'}${i.head_reason ? `\n    ${clip(oneLine(i.head_reason), REASON_MAX)}` : ''}`;
    const section = (title: string, items: ComparedScenario[]) => (items.length ? `${title} (${items.length}):\n${items.map(line).join('\n')}\n` : '');
    io.stdout.write(
      section('regressed', comparison.regressed) +
        section('improved', comparison.improved) +
        section('appeared', comparison.appeared) +
        section('vanished', comparison.vanished) +
        section('skipped in one report', comparison.skipped) +
        section('not run', comparison.not_run) +
        (comparison.trajectory.length
          ? `trajectory changes (${comparison.trajectory.length}):\n${comparison.trajectory.map((c) => `  ${oneLine(c.key)}: ${oneLine(describeTrajectoryChange(c))}`).join('\n')}\n`
          : '') +
        `${comparison.regressed.length} regressed, ${comparison.improved.length} improved, ${comparison.appeared.length} appeared, ${comparison.vanished.length} vanished, ${comparison.skipped.length ? `${comparison.skipped.length} skipped, ` : ''}${comparison.not_run.length ? `${comparison.not_run.length} not run, ` : ''}${comparison.unchanged} unchanged\n`,
    );
  }
  return comparison.regressed.length || incomplete.length || missing.length || comparison.nothing_shared ? EXIT.failed : EXIT.ok;
}
