import type { Redactor } from '../../config/redactor.js';
import type { Report, ScenarioRow } from '../report/report.js';

/**
 * The report with every string scrubbed, as `redactor.value(report)` gives it, but made a row at
 * a time: each row is replaced by its scrubbed copy as soon as that is made, so a large report
 * is never held twice (docs/security.md "Secrets"). The input's rows array is reused. With
 * `rowsScrubbed` the rows are taken as they are (agentcheck run scrubs each as it finishes).
 */
export function redactReport(redactor: Redactor, report: Report, options: { rowsScrubbed?: boolean } = {}): Report {
  const rows = report.scenarios;
  for (let i = 0; i < rows.length && !options.rowsScrubbed; i++) {
    rows[i] = redactor.value<ScenarioRow>(rows[i]);
  }
  const scrubbed = redactor.value<Report>({ ...report, scenarios: [] });
  // Assigning an existing key keeps its place, so the field order of report.json stays the same.
  scrubbed.scenarios = rows;
  return scrubbed;
}
