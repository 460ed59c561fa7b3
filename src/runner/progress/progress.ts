import type { ScenarioRow } from '../report/report.js';

/** Shows suite progress: a redrawn bar on a TTY, occasional plain lines otherwise. */
export interface Progress {
  update(row: ScenarioRow, done: number, total: number): void;
  finish(): void;
}

/** The progress of `run --quiet`: nothing, neither bar nor lines (docs/cli.md). */
export const NO_PROGRESS: Progress = { update() {}, finish() {} };

/** Suites shorter than this print no progress lines when not on a TTY (the table follows at once). */
const PLAIN_MIN_RUNS = 50;

/** A progress display on `stream`; `tty` selects the bar. */
export function createProgress(stream: NodeJS.WritableStream, tty: boolean, total: number): Progress {
  const started = Date.now();
  let failures = 0;
  let lastDraw = 0;
  let lastPlainDecile = 0;
  let drawn = false;
  const line = (done: number) => {
    const elapsed = (Date.now() - started) / 1000;
    const eta = done ? Math.max(0, (elapsed / done) * (total - done)) : 0;
    return `${done}/${total} done, ${failures} failed, ETA ${eta.toFixed(eta < 10 ? 1 : 0)} s`;
  };
  return {
    update(row, done) {
      if (row.status === 'fail' || row.status === 'error') failures++;
      if (tty) {
        const now = Date.now();
        if (now - lastDraw < 80 && done < total) return;
        lastDraw = now;
        const width = 24;
        const filled = Math.round((done / total) * width);
        stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${line(done)}\u001b[K`);
        drawn = true;
        return;
      }
      if (total < PLAIN_MIN_RUNS) return;
      const decile = Math.floor((done / total) * 10);
      if (decile > lastPlainDecile) {
        lastPlainDecile = decile;
        stream.write(`agentcheck: ${line(done)}\n`);
      }
    },
    finish() {
      if (drawn) stream.write('\r\u001b[K');
    },
  };
}
