/**
 * How the caller sets a run's cassette mode, named by the messages that say to (re-)record:
 * `agentcheck run`'s flag, or the `cassette` field of a testRun request (docs/cassettes.md, Drift).
 */
export type CassetteModeSetting = (mode: 'record' | 'auto') => string;

/** `agentcheck run --cassettes MODE` (a suite's scenario runs). */
export const CASSETTES_FLAG: CassetteModeSetting = (mode) => `--cassettes ${mode}`;

/** testRun's `cassette: {mode, ...}` request field. */
export const REQUEST_CASSETTE_MODE: CassetteModeSetting = (mode) => `cassette.mode: '${mode}'`;

/** The end of a message about a cassette that no longer serves the run: `re-record it with --cassettes record`. */
export function reRecord(setMode: CassetteModeSetting): string {
  return `re-record it with ${setMode('record')}`;
}
