import { backtrackingRisk } from '../../config/backtracking-risk.js';
import { compileSafeRegex, regexProblem } from '../../config/safe-regex.js';

/**
 * `--grep TEXT` (docs/cli.md): true for an id or name that contains TEXT as plain text, or that
 * TEXT matches as a regular expression, both case-insensitive. A pasted scenario name with
 * `( ) + $ .` selects that scenario as text, while `refund|cancel` and `^smoke/` still work as
 * expressions; TEXT that is no valid expression is matched as text only, never an error, and so
 * is one that could backtrack without bound (`(a+)+$`), which would stall the run
 * (docs/security.md).
 */
export function grepMatcher(grep: string): (text: string) => boolean {
  const needle = grep.toLowerCase();
  const pattern = grepPattern(grep);
  return (text) => text.toLowerCase().includes(needle) || (pattern?.test(text) ?? false);
}

function grepPattern(grep: string): RegExp | undefined {
  let plain: RegExp;
  try {
    plain = new RegExp(grep, 'i');
  } catch {
    // `refund (urgent` is a name fragment, not a broken expression: text alone decides.
    return undefined;
  }
  if (backtrackingRisk(grep)) return undefined;
  // Linear-time where the pattern allows; lookarounds and backreferences (`^(?!slow)`) keep
  // the backtracking engine, bounded here by the missing nested repetition and short names.
  return regexProblem(grep, 'i') ? plain : compileSafeRegex(grep, 'i');
}
