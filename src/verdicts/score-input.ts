import { memoryLocator } from '../config/assert-format.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../config/errors.js';
import { describeValue } from '../config/json-schema.js';
import { validateToolName } from './tool-name.js';

const SCORE_INPUT = 'scoreTestRun';

/** The stop reasons a run ends with (docs/engine-loop.md, Stop reasons). */
const STOP_REASONS = ['end_turn', 'max_turns', 'paused', 'error', 'max_tokens', 'refusal', 'content_filter'];

const KEYS = ['spans', 'stop_reason', 'error', 'terminal_tool', 'error_tokens', 'evidence'];

/**
 * Checks what a library caller gives scoreTestRun, so a wrong value is a ConfigError naming the
 * field (`scoreTestRun at stop_reason: ...`), never a TypeError from inside or a verdict made
 * from a stop reason no run has. Every problem in one error.
 */
export function validateScoreInput(input: unknown): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ConfigError({ file: SCORE_INPUT }, `expected {spans, stop_reason, error?, terminal_tool?, error_tokens?}, got ${describeValue(input)}`);
  }
  const given = input as Record<string, unknown>;
  const locate = memoryLocator(SCORE_INPUT);
  const problems: ConfigError[] = [];
  for (const key of Object.keys(given)) {
    if (!KEYS.includes(key)) problems.push(locate([key], `unknown key "${key}"; expected one of: ${KEYS.join(', ')}`));
  }
  const spans = given.spans;
  if (!Array.isArray(spans)) problems.push(locate(['spans'], `expected an array of span records (readSpansJsonl), got ${describeValue(spans)}`));
  else {
    const bad = spans.findIndex((span) => typeof span !== 'object' || span === null || typeof (span as { name?: unknown }).name !== 'string');
    if (bad >= 0) problems.push(locate(['spans', bad], `expected a span record {trace_id, span_id, name, ...}, got ${describeValue(spans[bad])}`));
  }
  if (typeof given.stop_reason !== 'string' || !STOP_REASONS.includes(given.stop_reason)) {
    problems.push(locate(['stop_reason'], `expected one of ${STOP_REASONS.join(', ')}, got ${describeValue(given.stop_reason)}`));
  }
  const error = given.error as { type?: unknown; message?: unknown } | null | undefined;
  if (error !== undefined && error !== null && (typeof error !== 'object' || typeof error.type !== 'string' || typeof error.message !== 'string')) {
    problems.push(locate(['error'], `expected null or {type: string, message: string}, got ${describeValue(error)}`));
  }
  if (given.terminal_tool !== undefined && given.terminal_tool !== null)
    collectConfigErrors(problems, () => validateToolName(given.terminal_tool, ['terminal_tool'], locate));
  const tokens = given.error_tokens;
  if (tokens !== undefined && (!Array.isArray(tokens) || tokens.some((token) => typeof token !== 'string' || token === ''))) {
    problems.push(locate(['error_tokens'], `expected a list of non-empty strings, got ${describeValue(tokens)}`));
  }
  throwConfigErrors(problems);
}
