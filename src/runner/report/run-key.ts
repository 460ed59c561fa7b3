/** The fields that name a row's run: its scenario, variant and repeat. */
export type RowId = { id: string; variant: string; repeat: number };

/** One key per run (scenario x variant x repeat): a report holds each once. */
export function runKey(row: RowId): string {
  return `${row.id}\u0000${row.variant}\u0000${row.repeat}`;
}

/** One key per scenario x variant, repeats pooled, as `compare` shows it (`<id> [<variant>]`). */
export function pairKey(row: Pick<RowId, 'id' | 'variant'>): string {
  return `${row.id} [${row.variant}]`;
}
