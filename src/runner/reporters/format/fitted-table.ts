import Table from 'cli-table3';
import type { Palette } from './ansi.js';
import { fitColumns, type ShrinkStep } from './fit-columns.js';
import { displayWidth } from './display-width.js';
import { wrapCell, wrapText } from './wrap-text.js';

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
  /**
   * The cell as printed (colour, a text re-cut to the column) for column `col`; `width` null =
   * natural, else `text` comes wrapped to the column already (lines joined by newlines).
   */
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
    const natural = kept.map((col) => 2 + Math.max(displayWidth(table.head[col]), ...table.rows.map((row) => displayWidth(row[col]))));
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
  // Narrowed cells are wrapped here, by display width: cli-table3 wraps inside words by UTF-16
  // length, so a line of CJK text came out twice too wide and was cut, its characters lost.
  const wrap = (text: string, i: number, col: number) => {
    const width = widths?.[i];
    return width ? wrapCell(text, width - 2, options.breakWords?.includes(col) ?? false) : text;
  };
  const out = new Table({
    head: kept.map((col, i) => paint.bold(wrap(table.head[col], i, col))),
    // cli-table3 colours heads red and borders grey by default, deciding by itself whether the
    // terminal supports it; empty styles leave that decision to the palette. Compact: no rule
    // between rows.
    style: { head: [], border: [], compact: true },
    ...(table.align ? { colAligns: kept.map((col) => table.align![col]) } : {}),
    // Null entries size to their content; a line still too wide (one long word) ends with an ellipsis.
    ...(widths ? { colWidths: widths as number[] } : {}),
  });
  table.rows.forEach((row, r) => {
    out.push(
      kept.map((col, i) => {
        const text = wrap(row[col], i, col);
        return options.cell ? options.cell(r, col, text, widths?.[i] ?? null) : text;
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
