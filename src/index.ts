/** agentcheck's public library surface (package entry "agentcheck"). Explicit exports, no logic. */

// test_run and suites
export { testRun } from './runner/test-run.js';
export type { TestRunRequest, TestRunResult } from './runner/test-run.js';
export { resumeTestRun } from './runner/resume/resume-test-run.js';
export type { ResumeTestRunRequest } from './runner/resume/resume-test-run.js';
// Named apart from agentcheck/vitest's runScenario(file, name?, options?): one name, one signature.
export { runLoadedScenario } from './runner/suite/run-loaded-scenario.js';
export type { RunLoadedScenarioOptions } from './runner/suite/run-loaded-scenario.js';
export type { Scenario } from './runner/scenario/scenario.js';
export { loadSuite } from './runner/suite/load-suite.js';
export { runSuite } from './runner/suite/run-suite.js';
export type { SuiteRunOptions } from './runner/suite/run-suite.js';
export type { SuiteSelectionRecord } from './runner/report/build-report.js';
export { loadSuiteConfig } from './runner/suite/suite-config.js';
export type { Report, ScenarioRow, ReportSummary } from './runner/report/report.js';

// engine
export { invoke } from './engine/invoke.js';
export type { InvokeInput, InvokeOptions } from './engine/invoke.js';
export type { Turn, StopReason, PendingInteraction } from './engine/turn.js';
export { loadAgentBuild, revisionFromValue } from './engine/revision/load-build.js';
export { FolderWorkspace } from './engine/workspace/folder-workspace.js';
export type { Workspace } from './engine/workspace/workspace.js';
export { applyDelta } from './engine/revision/delta.js';
export type { DeltaRevision } from './engine/revision/delta.js';
export type { AgentBuild, Delta, Revision, ToolSpec } from './engine/revision/types.js';
export { resolveConfig } from './engine/resolve-config.js';
export type { ResolvedConfig } from './engine/resolve-config.js';
export type { Model, ModelRequest, ModelResponse, ToolDefinition } from './engine/model/model.js';
export type { Message } from './engine/model/message.js';
export { ScriptedModel } from './engine/providers/scripted.js';
export type { ScriptEntry } from './engine/providers/scripted.js';
export { OpenAIChatModel } from './engine/providers/openai.js';
export { AnthropicMessagesModel } from './engine/providers/anthropic.js';
export { OpenAIResponsesModel } from './engine/providers/openai-responses/openai-responses.js';

// MCP servers as toolsets, shared across runs (docs/mcp.md)
export { McpServerPool } from './engine/mcp/mcp-server-pool.js';
export type { McpServerSpec } from './engine/revision/types.js';

// workflows: checkpoints and resume (docs/workflows.md)
export { resume } from './engine/resume.js';
export type { ResumeDecision } from './engine/resume.js';
export type { Checkpoint, Checkpointer } from './engine/checkpoint/checkpointer.js';
export { MemoryCheckpointer } from './engine/checkpoint/memory-checkpointer.js';
export { JsonlCheckpointer } from './engine/checkpoint/jsonl-checkpointer.js';
export { pausedRuns } from './engine/checkpoint/paused-runs.js';
export type { ChainResult } from './engine/chain/chain-result.js';
export type { PlanResult } from './engine/plan/run-plan.js';

// spans and verdicts
export { installTracing } from './spans/tracing.js';
export type { SpanRecord } from './spans/span-record.js';
export { compileQuery, querySpans, validateQuery } from './spans/query.js';
export type { SpanSource } from './spans/query.js';
export type { SpanStore } from './spans/span-store.js';
export type { CompiledQuery, QueryCondition, QueryFiltering, QueryResult, QueryWindowing, SpanQuery } from './spans/query.js';
export type { Locator } from './config/assert-format.js';
export { readSpansJsonl, spansToJsonl } from './spans/jsonl.js';
export { buildEvidence, runChecks, scoreTestRun } from './verdicts/index.js';
export type { ApprovalRecord, CheckResult, CheckStatus, Evidence, ToolCall } from './verdicts/index.js';
// custom checks (docs/custom-checks.md)
export type { CustomCheckFunction, CustomCheckOutcome } from './verdicts/index.js';

// errors
export { AgentcheckError, ConfigError, ConfigErrors, ModelError, RunError, ToolError } from './config/errors.js';
