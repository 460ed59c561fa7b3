/** The check catalog: kind -> check (docs/verdicts.md). A map only; the logic lives in each file. */
import type { Check } from './check.js';
import { approval } from './approval.js';
import { custom } from './custom.js';
import { file } from './file.js';
import { judge } from './judge.js';
import { maxDurationMs } from './max-duration-ms.js';
import { maxTokens } from './max-tokens.js';
import { maxToolCalls } from './max-tool-calls.js';
import { maxTurns } from './max-turns.js';
import { noSideEffectAfterDeny } from './no-side-effect-after-deny.js';
import { noToolErrors } from './no-tool-errors.js';
import { output } from './output.js';
import { resolved } from './resolved.js';
import { spans } from './spans.js';
import { state } from './state.js';
import { toolCalled } from './tool-called.js';
import { toolNotCalled } from './tool-not-called.js';
import { toolOrder } from './tool-order.js';
import { toolReturned } from './tool-returned.js';
import { toolSequence } from './tool-sequence.js';

/** Every check kind by name. */
export const CHECKS = {
  tool_called: toolCalled,
  tool_not_called: toolNotCalled,
  tool_sequence: toolSequence,
  tool_order: toolOrder,
  no_tool_errors: noToolErrors,
  tool_returned: toolReturned,
  approval,
  no_side_effect_after_deny: noSideEffectAfterDeny,
  output,
  resolved,
  max_turns: maxTurns,
  state,
  file,
  spans,
  max_tool_calls: maxToolCalls,
  max_tokens: maxTokens,
  max_duration_ms: maxDurationMs,
  custom,
  judge,
} as const satisfies Record<string, Check<never>>;

/** A check kind's name. */
export type CheckKind = keyof typeof CHECKS;

// Where the runner looks for them; the logic lives in ../run-checks.ts.
export { runChecks, validateChecks, type CheckSpec } from '../run-checks.js';
export type { Check, CheckResult, CheckStatus } from './check.js';
