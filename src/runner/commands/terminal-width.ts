import { DEFAULT_COLUMNS, MIN_COLUMNS } from '../reporters/quiet-report.js';

/** The width the terminal report is laid out for, and a warning when COLUMNS could not be used. */
export interface TerminalWidth {
  columns: number;
  warning?: string;
}

/**
 * COLUMNS when it holds a whole number (the shell's convention, so `COLUMNS=80 agentcheck run`
 * and CI settings work), else the width of the terminal stdout writes to, else DEFAULT_COLUMNS.
 * A COLUMNS that is not a number is reported, not silently ignored.
 */
export function terminalWidth(env: Readonly<Record<string, string | undefined>>, terminalColumns: number | undefined): TerminalWidth {
  const fallback = terminalColumns && terminalColumns > 0 ? terminalColumns : DEFAULT_COLUMNS;
  const given = env.COLUMNS?.trim();
  if (!given) return { columns: Math.max(MIN_COLUMNS, fallback) };
  // 0 is a whole number below the minimum like any other (docs/cli.md), not a bad value.
  if (!/^[0-9]+$/.test(given)) {
    return {
      columns: Math.max(MIN_COLUMNS, fallback),
      warning: `agentcheck: ignoring COLUMNS=${JSON.stringify(env.COLUMNS)}: expected a whole number of columns; laying the report out for ${Math.max(MIN_COLUMNS, fallback)}`,
    };
  }
  return { columns: Math.max(MIN_COLUMNS, Number(given)) };
}
