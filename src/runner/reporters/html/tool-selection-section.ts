import type { ReportStats } from '../../stats/stats-types.js';
import { headRow, note, numCell, section, textCell } from './cells.js';
import { dataAttrs } from './escape.js';
import { fmtInt, fmtMean, fmtMs, fmtPercent } from './format.js';

/**
 * Tool selection and cost per variant: micro precision and recall against the expected tools,
 * wrong-tool calls per scored run, mean turns, total tokens and wall time (p50/p95).
 */
export function toolSelectionSection(stats: ReportStats, variants: readonly string[]): string {
  const head = ['variant', 'scored runs', 'precision', 'recall', 'wrong-tool calls / run', 'mean turns', 'tokens p50', 'tokens p95', 'ms p50', 'ms p95'];
  const rows = variants.map((name) => {
    const s = stats.variants[name];
    const ts = s?.tool_selection;
    const cells = [
      textCell(name),
      numCell('scored_runs', ts?.runs, fmtInt(ts?.runs)),
      numCell('precision', ts?.precision, fmtPercent(ts?.precision)),
      numCell('recall', ts?.recall, fmtPercent(ts?.recall)),
      numCell('wrong_tool_calls_per_run', ts?.wrong_tool_calls.per_run, fmtMean(ts?.wrong_tool_calls.per_run)),
      numCell('turns_mean', s?.turns.mean, fmtMean(s?.turns.mean)),
      numCell('tokens_p50', s?.tokens.total.p50, fmtInt(s?.tokens.total.p50)),
      numCell('tokens_p95', s?.tokens.total.p95, fmtInt(s?.tokens.total.p95)),
      numCell('duration_p50', s?.duration_ms.p50, fmtMs(s?.duration_ms.p50)),
      numCell('duration_p95', s?.duration_ms.p95, fmtMs(s?.duration_ms.p95)),
    ];
    return `<tr${dataAttrs({ variant: name })}>${cells.join('')}</tr>`;
  });
  const explain =
    'Scored runs: runs whose scenario expects at least one tool (terminal_tool, tool_called, tool_sequence). ' +
    'Precision and recall are micro-averaged over the scored runs; a wrong-tool call is a call of a tool the scenario does not expect. ' +
    'Tokens: input + output per run; p50/p95 are nearest-rank percentiles.';
  return section('tool-selection', 'Tool selection', `<table class="tool-selection">${headRow(head)}${rows.join('')}</table>\n${note(explain)}`);
}
