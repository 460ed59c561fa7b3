import type { Message } from '../../engine/model/message.js';
import type { ApprovalPolicy } from '../../engine/permissions/approval-policy.js';
import type { ScriptEntry } from '../../engine/providers/scripted.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import type { CustomCheckRef } from '../checks/custom-check-ref.js';
import type { ScenarioNames } from './check-scenario-names.js';
import type { Locator } from '../../config/assert-format.js';
import type { JudgeJob } from '../judge/grader-model.js';
import type { HttpMock } from '../mocks/http-mocks.js';
import type { ExpectSpec, ScenarioSpec, SkillOptionsSpec } from './scenario-format.generated.js';

/** What a scenario expects (docs/formats.md, Scenario; docs/verdicts.md); `checks` always given. */
export interface ScenarioExpect extends ExpectSpec {
  checks: Array<Record<string, unknown>>;
}

/**
 * A loaded, validated scenario: paths absolute, its revision(s) resolved. The fields kept as
 * written have the types generated from the scenario schema (ScenarioSpec,
 * docs/architecture.md, Formats).
 */
export interface Scenario extends Pick<ScenarioSpec, 'name' | 'description' | 'resume' | 'expect_failure' | 'timeout_ms' | 'skip'> {
  /** `<file relative to the run root>#<name>`. */
  id: string;
  file: string;
  agentFile: string;
  /** The revision with the scenario's delta (and model override) applied; variants apply on top. */
  revision: DeltaRevision;
  /** The scenario's own delta (applied after a variant's). */
  delta?: unknown;
  workspace?: string;
  inputs: { messages: Message[]; context?: Record<string, unknown> };
  script?: ScriptEntry[];
  approvals?: ApprovalPolicy;
  /**
   * Every build `approvals` answer (its build under each variant), when some has an MCP server
   * without a `tools` list: the run holds the approvals to them once its servers list their tools.
   */
  approvalsHeldTo?: AgentBuild[];
  /**
   * The tool names the scenario uses and every build it runs (its build under each variant), when
   * some has an MCP server: at load any name of a server without a `tools` list is accepted, and no
   * argument name of an MCP tool is checked, so the run holds them to what the servers list (tools
   * and their closed parameters), before the model's first call; `locate` places a problem in the
   * scenario file as the load does (file:line:col and the scenario's path).
   */
  namesHeldToListedTools?: { names: ScenarioNames; builds: AgentBuild[]; locate: Locator };
  mocks?: { http?: HttpMock[] };
  expect: ScenarioExpect;
  /** The `custom` checks of `expect.checks`, their modules resolved (docs/custom-checks.md). */
  customChecks?: CustomCheckRef[];
  tags: string[];
  /** Skill folders (absolute) and delivery added to the suite's for this scenario. */
  skills?: { forced: string[]; overlay: string[]; delivery?: SkillOptionsSpec['delivery'] };
  /** The judge checks among `expect.checks`, each with its grader resolved (none: no judge checks). */
  judges?: JudgeJob[];
  /** Where the dataset row it was expanded from is written (`orders.csv:7`, `dataset[2]`); none without a dataset. */
  datasetRow?: string;
}
