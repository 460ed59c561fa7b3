import Table from 'cli-table3';
import type { Palette } from './ansi.js';
import { fitColumns, type ShrinkStep } from './fit-columns.js';
import { wrapText } from './wrap-text.js';

/** A table of plain-text cells (no colour codes) to print within a width. */
export interface PlainTable {
  head: string[];
  rows: string[][];
  align?: Array<'left' | 'right'>;
}

/** How a table gives way to a narrow terminal; column numbers index PlainTable.head. */
export interface FitOptions {
  /** Narrowing steps, run in order until the table fits (see fitColumns). */
  steps: readonly ShrinkStep[];
  /** Columns that wrap inside words when narrowed (ids, names); the others wrap at spaces. */
  breakWords?: readonly number[];
  /** Columns left out, in this order, when even the narrowest widths do not fit. */
  dropOrder?: readonly number[];
  /** The cell as printed (colour, a text re-cut to the column) for column `col`; `width` null = natural. */
  cell?: (row: number, col: number, text: string, width: number | null) => string;
}

/**
 * Renders `table` within `width` columns: the steps narrow columns (a narrowed column wraps, its
 * head too; a word that still does not fit ends with an ellipsis); when the narrowest widths are
 * still too wide, columns of `dropOrder` are left out one by one and a note under the table names
 * them. Only a table whose remaining columns cannot fit at their minimums is printed wider.
 */
export function fittedTable(table: PlainTable, paint: Palette, width: number, options: FitOptions): string {
  const dropOrder = [...(options.dropOrder ?? [])];
  let kept = table.head.map((_, i) => i);
  for (;;) {
    const position = new Map(kept.map((col, i) => [col, i]));
    const natural = kept.map((col) => 2 + Math.max(table.head[col].length, ...table.rows.map((row) => row[col].length)));
    const steps = options.steps.flatMap(([col, min]): ShrinkStep[] => (position.has(col) ? [[position.get(col)!, min]] : []));
    const widths = fitColumns(natural, width, steps);
    const total = natural.reduce((sum, w, i) => sum + (widths?.[i] ?? w), 0) + kept.length + 1;
    if (total <= width || !dropOrder.length) {
      const dropped = table.head.filter((_, col) => !position.has(col));
      return render(table, kept, widths, paint, options) + droppedNote(dropped, paint, width);
    }
    const drop = dropOrder.shift()!;
    kept = kept.filter((col) => col !== drop);
  }
}

function render(table: PlainTable, kept: readonly number[], widths: Array<number | null> | null, paint: Palette, options: FitOptions): string {
  const out = new Table({
    head: kept.map((col) => paint.bold(table.head[col])),
    // cli-table3 colours heads red and borders grey by default, deciding by itself whether the
    // terminal supports it; empty styles leave that decision to the palette. Compact: no rule
    // between rows.
    style: { head: [], border: [], compact: true },
    ...(table.align ? { colAligns: kept.map((col) => table.align![col]) } : {}),
    // Null entries size to their content.
    ...(widths ? { colWidths: widths as number[], wordWrap: true } : {}),
  });
  table.rows.forEach((row, r) => {
    out.push(
      kept.map((col, i) => {
        const width = widths?.[i] ?? null;
        const text = options.cell ? options.cell(r, col, row[col], width) : row[col];
        return width && options.breakWords?.includes(col) ? { content: text, wordWrap: true, wrapOnWordBoundary: false } : text;
      }),
    );
  });
  return out.toString();
}

function droppedNote(columns: readonly string[], paint: Palette, width: number): string {
  if (!columns.length) return '';
  const text = `(too narrow for: ${columns.join(', ')}; widen the terminal or set COLUMNS; report.md (--reporter md) has every column)`;
  return `\n${wrapText(text, width, '')
    .map((line) => paint.gray(line))
    .join('\n')}`;
}
