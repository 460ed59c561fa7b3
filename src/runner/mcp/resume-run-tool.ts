import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../suite/timeouts.js';
import { continuePausedRun } from '../resume/resume-test-run.js';
import { memoryLocator } from '../../config/assert-format.js';
import { withSentArguments } from './sent-arguments.js';
import type { McpServerContext } from './server-context.js';
import { enumChoice } from './enum-choice.js';
import { settleRun } from './settle-run.js';
import { refuseInsideRun } from '../recursion-guard.js';
import { testRunOutput, timeoutMsField } from './test-run-schema.js';
import { errorResult, insideRunRefusal, structuredResult } from './tool-results.js';

/** resume_run arguments. */
export const resumeRunInput = z
  .object({
    run_id: z.string().min(1).describe('the run_id a paused test_run (or resume_run) result returned'),
    decision: enumChoice(['approve', 'deny']).describe('the answer to the gated tool call the run waits at'),
    timeout_ms: timeoutMsField(`wall-clock cap of the resumed run in ms (default ${DEFAULT_TEST_RUN_TIMEOUT_MS})`),
  })
  .strict();

export type ResumeRunArgs = z.infer<typeof resumeRunInput>;

const RESUME_RUN_DESCRIPTION = [
  'Continue a run that test_run left paused at an approval gate (stop_reason "paused", with a run_id): the decision answers the gated call, and the run goes on from its checkpoint, in the same workspace, with the same script, mocks and approvals (not a re-run).',
  'Returns the TestRunResult of the continued run (a new trace_id; its transcript and usage cover the whole run). A run that pauses again returns a new run_id. A run_id is answered once; a resumed run that ends with an error before anything ran (its MCP servers did not start, or timeout_ms ran out first, as while slow servers start) stays paused, and its result carries the same run_id to answer again once the cause is fixed.',
].join(' ');

/** Registers `resume_run`: continues a paused test_run from its checkpoint. */
export function registerResumeRunTool(server: McpServer, context: McpServerContext): void {
  server.registerTool(
    'resume_run',
    {
      title: 'Answer a paused test_run and continue it',
      description: RESUME_RUN_DESCRIPTION,
      inputSchema: resumeRunInput,
      outputSchema: testRunOutput,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    // Aborted when the client cancels the request or disconnects (as test_run's).
    withSentArguments<ResumeRunArgs>(
      context.sent,
      'resume_run',
      resumeRunInput,
      (args, extra) => context.calls.track(resumeRun(args, context, extra.signal)),
      insideRunRefusal,
    ),
  );
}

/** The handler: never throws; an unknown run_id is a tool error naming it. */
export async function resumeRun(args: ResumeRunArgs, context: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  try {
    // As test_run: before the run_id is looked up (none could have paused inside a run).
    refuseInsideRun();
    const { record, run, kept } = await continuePausedRun(
      context.paused,
      { ...args, signal },
      'on this server: give the run_id of a test_run or resume_run result',
      { locate: memoryLocator('arguments') },
    );
    // A run kept paused (nothing ran) keeps its workspace; its spans are queryable all the same.
    return structuredResult(await settleRun(record, run, context, kept));
  } catch (error) {
    return errorResult(error);
  }
}
