import { readReportFile } from '../merge/read-report-file.js';

/**
 * `--only-failed REPORT.json`: the scenario x variant pairs that failed or errored in a previous
 * report, and those an interrupt left not run (scenario id -> variants): a retry job after an
 * interrupted run must not report "nothing to rerun". A missing or invalid report is a
 * ConfigError (exit 2) from the report reader `compare` and `merge` use.
 */
export function failedRuns(file: string, cwd: string): Map<string, Set<string>> {
  const runs = new Map<string, Set<string>>();
  for (const row of readReportFile(file, cwd).scenarios) {
    if (row.status !== 'fail' && row.status !== 'error' && row.status !== 'not_run') continue;
    const variants = runs.get(row.id) ?? new Set<string>();
    variants.add(row.variant);
    runs.set(row.id, variants);
  }
  return runs;
}

/**
 * The failed `id [variant]` pairs that no planned run covers (a scenario or variant renamed since);
 * a run counts under its id as reports show it (`shownId`, secrets redacted) too.
 */
export function missingPairs(
  only: ReadonlyMap<string, ReadonlySet<string>>,
  runs: ReadonlyArray<{ scenario: { id: string }; variant: string }>,
  shownId: (id: string) => string = (id) => id,
): string[] {
  const planned = new Set(runs.flatMap((run) => [`${run.scenario.id} [${run.variant}]`, `${shownId(run.scenario.id)} [${run.variant}]`]));
  return [...only].flatMap(([id, variants]) => [...variants].map((variant) => `${id} [${variant}]`)).filter((pair) => !planned.has(pair));
}
