import type { ScenarioRow } from '../../report/report.js';
import { clip, isFailing, rowLabel, rowReason, STATUS_LABEL } from '../format/row-cells.js';
import { section } from './cells.js';
import { dataAttrs, esc } from './escape.js';
import { transcriptView } from './transcript-view.js';

/** At most this many failing rows are listed (the summary counts them all). */
export const HTML_FAILURE_LIMIT = 200;
const CHECKS_PER_FAILURE = 20;
// A reason may quote a whole tool output; cut it so one row cannot bury the others.
const REASON_MAX = 2000;

/** Failed and errored rows first, each with its reason, its error and the checks that did not pass. */
export function failuresSection(rows: readonly ScenarioRow[], showRepeat: boolean, fullReport = 'report.json'): string {
  const failing = rows.filter(isFailing);
  if (!failing.length) return section('failures', 'Failures and errors (0)', '<p class="note" data-failures="none">Every run that ran to a result passed.</p>');
  const items = failing.slice(0, HTML_FAILURE_LIMIT).map((row) => {
    const checks = row.checks.filter((check) => check.status !== 'pass');
    const checkItems = checks
      .slice(0, CHECKS_PER_FAILURE)
      .map(
        (check) =>
          `<li${dataAttrs({ check: check.id, status: check.status })}><span class="status status-${check.status === 'error' ? 'error' : 'fail'}">${esc(check.status)}</span> <code>${esc(check.id)}</code>: <span class="reason">${esc(clip(check.reason, REASON_MAX))}</span></li>`,
      );
    if (checks.length > CHECKS_PER_FAILURE) checkItems.push(`<li class="note">${checks.length - CHECKS_PER_FAILURE} more checks did not pass</li>`);
    const error = row.error ? `<div>error <code>${esc(row.error.type)}</code></div>` : '';
    return (
      `<li class="failure failure-${row.status}"${dataAttrs({ 'row-id': row.id, variant: row.variant, repeat: row.repeat, status: row.status })}>` +
      `<span class="status status-${row.status}">${STATUS_LABEL[row.status]}</span> <span class="mono">${esc(rowLabel(row, showRepeat))}</span>` +
      `<div class="reason">${esc(clip(rowReason(row), REASON_MAX))}</div>${error}${checkItems.length ? `<ul>${checkItems.join('')}</ul>` : ''}${transcriptView(row.transcript, fullReport)}</li>`
    );
  });
  const more =
    failing.length > HTML_FAILURE_LIMIT ? `<p class="note">${failing.length - HTML_FAILURE_LIMIT} more failures and errors are in ${fullReport}.</p>` : '';
  return section('failures', `Failures and errors (${failing.length})`, `<ul class="failures">${items.join('')}</ul>${more}`);
}
