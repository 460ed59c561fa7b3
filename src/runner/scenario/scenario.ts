import type { Message } from '../../engine/model/message.js';
import type { ApprovalPolicy } from '../../engine/permissions/approval-policy.js';
import type { ScriptEntry } from '../../engine/providers/scripted.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import type { CustomCheckRef } from '../checks/custom-check-ref.js';
import type { JudgeJob } from '../judge/grader-model.js';
import type { HttpMock } from '../mocks/http-mocks.js';

/** What a scenario expects (docs/formats.md, Scenario; docs/verdicts.md). */
export interface ScenarioExpect {
  terminal_tool?: string;
  verdict?: 'pass' | 'incomplete' | 'unconfirmed' | 'failed';
  checks: Array<Record<string, unknown>>;
  error_tokens?: string[];
}

/** A loaded, validated scenario: paths absolute, its revision(s) resolved. */
export interface Scenario {
  /** `<file relative to the run root>#<name>`. */
  id: string;
  name: string;
  file: string;
  description?: string;
  agentFile: string;
  /** The revision with the scenario's delta (and model override) applied; variants apply on top. */
  revision: DeltaRevision;
  /** The scenario's own delta (applied after a variant's). */
  delta?: unknown;
  workspace?: string;
  inputs: { messages: Message[]; context?: Record<string, unknown> };
  script?: ScriptEntry[];
  approvals?: ApprovalPolicy;
  mocks?: { http?: HttpMock[] };
  /** Answers to the run's successive pauses, in order (docs/formats.md, "Pause and resume"). */
  resume?: Array<{ decision: 'approve' | 'deny' }>;
  expect: ScenarioExpect;
  /** The `custom` checks of `expect.checks`, their modules resolved (docs/custom-checks.md). */
  customChecks?: CustomCheckRef[];
  tags: string[];
  expect_failure?: string;
  timeout_ms?: number;
  skip?: boolean | string;
  /** Skill folders (absolute) and delivery added to the suite's for this scenario. */
  skills?: { forced: string[]; overlay: string[]; delivery?: 'inline' | 'on_demand' };
  /** The judge checks among `expect.checks`, each with its grader resolved (none: no judge checks). */
  judges?: JudgeJob[];
}
