/** What answers a gate for every tool (`approvals.default`, a scenario's `resume` decision): approve or deny. */
export const approvalAnswerSchema = { enum: ['approve', 'deny'] };

/**
 * JSON Schema of `approvals` (docs/formats.md, Scenario): scenario files, test-run --approvals,
 * testRun, MCP test_run and the library's invoke and resume share it.
 */
export const approvalsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    default: approvalAnswerSchema,
    // A tool gate takes approve/deny; a human_input component may also take a response text.
    tools: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
  },
};
