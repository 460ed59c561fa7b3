/**
 * String comparison as the Berkeley Function Calling Leaderboard's AST checker does it:
 * spaces and `,./-_*^` removed, lower-cased, single quotes read as double quotes, so
 * "April 1, 2024" and "april 1 2024" are the same answer.
 */
export function standardizeString(text: string): string {
  return text
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replace(/'/g, '"');
}
