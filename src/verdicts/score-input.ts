import { memoryLocator, type Locator } from '../config/assert-format.js';
import { unknownKeyMessage } from '../config/option-keys.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../config/errors.js';
import { describeValue } from '../config/describe-value.js';
import { spanListProblem } from '../spans/span-record-check.js';
import { validateToolName } from './tool-name.js';

const SCORE_INPUT = 'scoreTestRun';
const EVIDENCE_INPUT = 'buildEvidence';

/** The stop reasons a run ends with (docs/engine-loop.md, Stop reasons). */
const STOP_REASONS = ['end_turn', 'max_turns', 'paused', 'error', 'max_tokens', 'refusal', 'content_filter'];

const KEYS = ['spans', 'stop_reason', 'error', 'terminal_tool', 'error_tokens', 'evidence'];
const EVIDENCE_KEYS = ['spans', 'transcript', 'output', 'workspaceDir', 'errorTokens', 'judgements'];

/**
 * Checks what a library caller gives scoreTestRun, so a wrong value is a ConfigError naming the
 * field (`scoreTestRun at stop_reason: ...`), never a TypeError from inside or a verdict made
 * from a stop reason no run has. Every problem in one error.
 */
export function validateScoreInput(input: unknown): void {
  const given = inputObject(input, SCORE_INPUT, '{spans, stop_reason, error?, terminal_tool?, error_tokens?}');
  const locate = memoryLocator(SCORE_INPUT);
  const problems = unknownKeys(given, KEYS, locate);
  const spans = spanListProblem(given.spans, ['spans'], locate);
  if (spans) problems.push(spans);
  if (typeof given.stop_reason !== 'string' || !STOP_REASONS.includes(given.stop_reason)) {
    problems.push(locate(['stop_reason'], `expected one of ${STOP_REASONS.join(', ')}, got ${describeValue(given.stop_reason)}`));
  }
  const error = given.error as { type?: unknown; message?: unknown } | null | undefined;
  if (error !== undefined && error !== null && (typeof error !== 'object' || typeof error.type !== 'string' || typeof error.message !== 'string')) {
    problems.push(locate(['error'], `expected null or {type: string, message: string}, got ${describeValue(error)}`));
  }
  if (given.terminal_tool !== undefined && given.terminal_tool !== null)
    collectConfigErrors(problems, () => validateToolName(given.terminal_tool, ['terminal_tool'], locate));
  checkErrorTokens(given.error_tokens, 'error_tokens', locate, problems);
  // Evidence is read as buildEvidence returns it (its calls, approvals and spans lists).
  const evidence = given.evidence;
  if (evidence !== undefined && !(isObject(evidence) && ['calls', 'approvals', 'spans'].every((key) => Array.isArray(evidence[key])))) {
    problems.push(locate(['evidence'], `expected the evidence buildEvidence({spans}) returns for the same spans, got ${describeValue(evidence)}`));
  }
  throwConfigErrors(problems);
}

/**
 * Checks what a library caller gives buildEvidence, as validateScoreInput does for scoreTestRun
 * (`buildEvidence at spans[0].attributes: ...`): every problem in one ConfigError.
 */
export function validateEvidenceInput(input: unknown): void {
  const given = inputObject(input, EVIDENCE_INPUT, '{spans, transcript?, output?, workspaceDir?, errorTokens?, judgements?}');
  const locate = memoryLocator(EVIDENCE_INPUT);
  const problems = unknownKeys(given, EVIDENCE_KEYS, locate);
  const spans = spanListProblem(given.spans, ['spans'], locate);
  if (spans) problems.push(spans);
  const transcript = given.transcript;
  if (transcript !== undefined && (!Array.isArray(transcript) || transcript.some((message) => !isObject(message)))) {
    problems.push(locate(['transcript'], `expected a list of messages {role, content}, got ${describeValue(transcript)}`));
  }
  for (const key of ['output', 'workspaceDir']) {
    if (given[key] !== undefined && typeof given[key] !== 'string') problems.push(locate([key], `expected a string, got ${describeValue(given[key])}`));
  }
  checkErrorTokens(given.errorTokens, 'errorTokens', locate, problems);
  if (given.judgements !== undefined && !isObject(given.judgements)) {
    problems.push(locate(['judgements'], `expected an object of judge answers by check id, got ${describeValue(given.judgements)}`));
  }
  throwConfigErrors(problems);
}

function inputObject(input: unknown, file: string, shape: string): Record<string, unknown> {
  if (!isObject(input)) throw new ConfigError({ file }, `expected ${shape}, got ${describeValue(input)}`);
  return input;
}

function unknownKeys(given: Record<string, unknown>, keys: string[], locate: Locator): ConfigError[] {
  return Object.keys(given)
    .filter((key) => !keys.includes(key))
    .map((key) => locate([key], unknownKeyMessage(key, keys)));
}

function checkErrorTokens(tokens: unknown, key: string, locate: Locator, problems: ConfigError[]): void {
  if (tokens !== undefined && (!Array.isArray(tokens) || tokens.some((token) => typeof token !== 'string' || token === ''))) {
    problems.push(locate([key], `expected a list of non-empty strings, got ${describeValue(tokens)}`));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
