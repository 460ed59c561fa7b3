import Table from 'cli-table3';
import type { Palette } from './ansi.js';

/** A cli-table3 table whose only colours are the ones the palette applies. */
export function newTable(head: string[], paint: Palette, colAligns?: Array<'left' | 'right' | 'center'>, colWidths?: Array<number | null>): Table.Table {
  // cli-table3 colours heads red and borders grey by default, deciding by itself whether the
  // terminal supports it; empty styles leave that decision to ReporterContext.color.
  // Compact: no rule between rows, so a 200-row table takes 200 lines, not 400.
  return new Table({
    head: head.map((title) => paint.bold(title)),
    style: { head: [], border: [], compact: true },
    ...(colAligns ? { colAligns } : {}),
    // Null entries size to their content; cells opt into wrapping one by one.
    ...(colWidths ? { colWidths: colWidths as number[] } : {}),
  });
}
