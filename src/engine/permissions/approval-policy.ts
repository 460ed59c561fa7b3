/** Headless answers to gated calls (scenario `approvals`, docs/formats.md, Scenario). */
export type ApprovalAnswer = 'approve' | 'deny';

export interface ApprovalPolicy {
  default?: ApprovalAnswer;
  tools?: Record<string, ApprovalAnswer | string>;
}

/** The policy's answer for a tool (`reject` is `deny`), or undefined when nobody answered (the run pauses). */
export function answerFor(policy: ApprovalPolicy | undefined, tool: string): ApprovalAnswer | undefined {
  const given = policy?.tools?.[tool] ?? policy?.default;
  if (given === 'approve' || given === 'deny') return given;
  if (given === 'reject') return 'deny';
  return undefined;
}
