import type { Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';

/**
 * An `expect.verdict` the run could never give: without `expect.terminal_tool` the verdict is
 * `unconfirmed` or `failed` (docs/verdicts.md), so `pass` and `incomplete` are refused at load,
 * as other expectations that could never be met are.
 */
export function expectedVerdictProblems(expect: { verdict?: string; terminal_tool?: string }, locate: Locator): ConfigError[] {
  if (expect.terminal_tool !== undefined || (expect.verdict !== 'pass' && expect.verdict !== 'incomplete')) return [];
  return [
    locate(
      ['expect', 'verdict'],
      `verdict ${expect.verdict} needs expect.terminal_tool: without one the verdict is unconfirmed (or failed), so it could never be ${expect.verdict}; name the tool whose successful call completes the job`,
    ),
  ];
}
