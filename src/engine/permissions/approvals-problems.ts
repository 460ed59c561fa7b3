import { checkFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, type ConfigError } from '../../config/errors.js';
import { withoutUndefined } from '../../config/without-undefined.js';
import type { AgentBuild } from '../revision/types.js';
import type { ApprovalPolicy } from './approval-policy.js';
import { approvalsSchema } from './approvals-schema.js';
import { checkApprovals, soundApprovalTools } from './check-approvals.js';

/**
 * Every problem of a single run's `approvals` (test-run --approvals, testRun, MCP test_run, the
 * library's invoke and resume), in
 * one pass and the same words: its format's problems, and beside them each answer the format
 * left intact held to `build` (checkApprovals), so a bad `default`, a bad answer or an unknown
 * key hides no misspelt tool (docs/cli.md, validate). Without a build (it did not load) the
 * format alone. `formatReported`: the caller has said the format's problems already (testRun's
 * request check), so only the build's are returned. `locate` takes paths relative to `approvals`.
 */
export function approvalsProblems(value: unknown, build: AgentBuild | undefined, locate: Locator, formatReported = false): ConfigError[] {
  const format = checkFormat<ApprovalPolicy>(approvalsSchema, withoutUndefined(value), locate);
  const problems = formatReported ? [] : [...format.errors];
  // Not an object: there is no answer to hold to the build, and the format said what it is.
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (build && isObject) collectConfigErrors(problems, () => checkApprovals(soundApprovalTools(format.value, format.valid), [build], locate));
  return problems;
}
