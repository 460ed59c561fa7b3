/**
 * `--grep TEXT` (docs/cli.md): true for an id or name that contains TEXT as plain text, or that
 * TEXT matches as a regular expression, both case-insensitive. A pasted scenario name with
 * `( ) + $ .` selects that scenario as text, while `refund|cancel` and `^smoke/` still work as
 * expressions; TEXT that is no valid expression is matched as text only, never an error.
 */
export function grepMatcher(grep: string): (text: string) => boolean {
  const needle = grep.toLowerCase();
  let pattern: RegExp | undefined;
  try {
    pattern = new RegExp(grep, 'i');
  } catch {
    // `refund (urgent` is a name fragment, not a broken expression: text alone decides.
    pattern = undefined;
  }
  return (text) => text.toLowerCase().includes(needle) || (pattern?.test(text) ?? false);
}
