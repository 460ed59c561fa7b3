/** Public surface of the verdicts layer: what the runner and the CLI call. No logic here. */
export { buildEvidence, visibleCalls } from './evidence.js';
export type { ApprovalRecord, Evidence, EvidenceInput, FlowStateEvidence, Judgement, ToolCall } from './evidence-types.js';
export { decideVerdict, scoreTestRun } from './test-run-verdict.js';
export type { ScoreTestRunInput, TestRunScore, Verdict, VerdictInput } from './test-run-verdict.js';
export type { ToolDigest } from './tool-digest.js';
export { DEFAULT_ERROR_TOKENS, compileErrorTokens } from './error-tokens.js';
export { checkReferences, runChecks, runChecksWithCustom, validateCheck, validateChecks } from './run-checks.js';
export type { CheckReference } from './check-references.js';
export type { CustomCheckFunction, CustomCheckOutcome } from './run-custom-check.js';
export type { CustomCheckParams } from './checks/custom.js';
export { toolNameMatcher, validateToolName } from './tool-name.js';
export type { CheckSpec } from './run-checks.js';
export { CHECKS } from './checks/index.js';
export type { CheckKind } from './checks/index.js';
export type { Check, CheckResult, CheckStatus } from './checks/check.js';
export { matchArgs, ARGS_MODES } from './args/args-mode.js';
export type { ArgsMode } from './args/args-mode.js';
