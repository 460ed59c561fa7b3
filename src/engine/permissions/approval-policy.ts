import { ownValue } from '../../config/own-key.js';

/** Headless answers to gated calls (scenario `approvals`, docs/formats.md, Scenario). */
export type ApprovalAnswer = 'approve' | 'deny';

export interface ApprovalPolicy {
  default?: ApprovalAnswer;
  tools?: Record<string, ApprovalAnswer | string>;
}

/** The policy's answer for a tool (`reject` is `deny`), or undefined when nobody answered (the run pauses). */
export function answerFor(policy: ApprovalPolicy | undefined, tool: string): ApprovalAnswer | undefined {
  const given = policyAnswer(policy, tool);
  if (given === 'approve' || given === 'deny') return given;
  if (given === 'reject') return 'deny';
  return undefined;
}

/**
 * What `policy` gives for the gate `name` (a tool or a human_input component): its own
 * `tools` entry, else `default`. A tool named `constructor` or `toString` has no entry unless one is written.
 */
export function policyAnswer(policy: ApprovalPolicy | undefined, name: string): string | undefined {
  return (policy?.tools && ownValue(policy.tools, name)) ?? policy?.default;
}
