import { z } from 'zod';
import { MOCK_METHODS } from '../scenario/scenario-schema.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../suite/timeouts.js';
import { enumChoice } from './enum-choice.js';
import { timerMsField } from './timer-ms-field.js';

/**
 * The test_run tool's input and output schemas (zod, listed to clients as JSON Schema). Every
 * object is strict: an unknown key is a tool error naming it, never silently ignored.
 */

const message = z
  .object({
    role: enumChoice(['user', 'assistant']).describe('who said it'),
    content: z.string().describe('the message text'),
  })
  .strict();

const toolCall = z
  .object({
    name: z.string().min(1).describe('tool name exactly as the agent offers it, e.g. lookup_order or mcp__fs__read_text_file'),
    args: z.unknown().optional().describe('the arguments object, e.g. {"order_id": "1234"}; default {}'),
    id: z.string().min(1).optional().describe('tool call id; default call_1, call_2, ...'),
  })
  .strict();

const scriptEntry = z
  .object({
    text: z.string().optional().describe('assistant text of this model turn; an entry with text and no tool_calls ends the run'),
    tool_calls: z.array(toolCall).optional().describe('tool calls this model turn makes (at least one; run concurrently, reported in order)'),
    usage: z
      .object({
        input_tokens: z.number().int().min(0).optional(),
        output_tokens: z.number().int().min(0).optional(),
      })
      .strict()
      .optional()
      .describe('token counts to report; default estimated'),
    delay_ms: timerMsField(0).optional().describe('simulated latency before this answer, in ms'),
    error: z
      .object({
        message: z.string(),
        status: z.number().int().optional(),
      })
      .strict()
      .optional()
      .describe('make this model call fail like a provider error; an entry with error has no text or tool_calls'),
  })
  .strict();

const mockResponse = {
  status: z.number().int().min(100).max(599).optional().describe('default 200'),
  json: z.unknown().optional().describe('JSON response body'),
  body: z.string().optional().describe('text response body (instead of json)'),
  headers: z.record(z.string()).optional(),
  delay_ms: timerMsField(0).optional().describe('simulated latency before this answer, in ms'),
};

const httpMock = z
  .object({
    method: enumChoice(MOCK_METHODS).optional().describe('default: any method; either case (post matches POST)'),
    url: z.string().min(1).describe('URL the http tool requests: exact, or a pattern with * wildcards'),
    match: z
      .object({
        json: z
          .unknown()
          .optional()
          .describe('values the JSON request body must hold: its listed keys must match (matchers such as {"$regex": "..."} allowed), others may be there'),
        body: z.unknown().optional().describe('the request body text, or a matcher such as {"$regex": "..."}'),
      })
      .strict()
      .optional()
      .describe('answer only requests whose body matches'),
    ...mockResponse,
    responses: z
      .array(z.object(mockResponse).strict())
      .min(1)
      .optional()
      .describe(
        'answers in order, one per matching request, e.g. [{"status": 503}, {"status": 200, "json": {...}}]; the last repeats; instead of status/json/body/headers/delay_ms',
      ),
  })
  .strict();

const agentArg = z.union(
  [
    z.string().min(1).describe('path of an agent build file (YAML or JSON), relative to the folder the server was started in'),
    z.record(z.unknown()).describe('an inline agent build: {id, agent: {name, instructions, llm, tools, mcps, ...}, flow?}'),
  ],
  { errorMap: () => ({ message: 'expected an agent build file path (string) or an inline agent build object {id, agent: {...}}' }) },
);

/** The optional `timeout_ms` argument of test_run and resume_run: a wall-clock cap in ms. */
export function timeoutMsField(description: string) {
  return timerMsField(1).optional().describe(description);
}

/** test_run arguments (docs/mcp.md, test_run). */

export const testRunInput = z
  .object({
    agent: agentArg.describe('the agent build to run: a file path or an inline build object; it is never modified'),
    inputs: z
      .object({
        messages: z.array(message).min(1).describe('the conversation so far; the last one is usually the user request'),
        context: z
          .record(z.unknown())
          .optional()
          .describe('initial context of a flow, or sent to an external agent with the messages; a build with neither does not read it'),
      })
      .strict()
      .describe('what the agent receives'),
    delta: z
      .object({
        set: z.record(z.unknown()).optional().describe('deep-merged into the build, e.g. {"agent": {"max_turns": 4}}; arrays and scalars replace'),
        remove: z.array(z.string().min(1)).optional().describe('dotted paths to delete, e.g. "agent.tools[name=send_email]" or "agent.tools.3"'),
      })
      .strict()
      .optional()
      .describe('a change applied in memory for this run only, never saved'),
    expectations: z
      .object({
        terminal_tool: z
          .string()
          .min(1)
          .optional()
          .describe(
            'the tool whose successful call completes the job; a bare name (or "/regex/", tested against names without their mcp__<server>__ prefix) also matches that tool of every MCP server, a name written with its mcp__<server>__ prefix only that server\'s tool; without it the verdict is at best "unconfirmed"',
          ),
        error_tokens: z
          .array(z.string().min(1))
          .optional()
          .describe('texts that mark a tool result as an error; default "ok": false, not_in_channel, invalid_auth, ...'),
      })
      .strict()
      .optional()
      .describe('what decides the verdict'),
    approvals: z
      .object({
        default: enumChoice(['approve', 'deny']).optional().describe('answer for every gated tool call'),
        tools: z
          .record(z.string().min(1))
          .optional()
          .describe('per tool: "approve", "deny" or "reject" (the same as deny); a flow human_input component may take a response text instead'),
      })
      .strict()
      // Listed with its shape, but never refused here: the handler holds it as test-run --approvals
      // is held (approvalsProblems), each problem beside its unknown tools, in the CLI's words.
      .catch(({ input }) => input)
      .optional()
      .describe('headless answers to calls that need approval; an unanswered gate pauses the run'),
    script: z
      .array(scriptEntry)
      // Listed with its shape, but never refused here: the handler holds it to the script rules
      // (checkScript), every entry's problem in the CLI's words, beside the other entries' tool names.
      .catch(({ input }) => input)
      .optional()
      .describe("scripted model: one entry per model call, used instead of the build's llm (offline, deterministic); running out of entries is an error"),
    mocks: z
      .object({
        http: z.array(httpMock).describe('answers to http tool requests; an unmatched request fails'),
      })
      .strict()
      .optional()
      .describe("HTTP mocks for the agent's http tools"),
    workspace: z
      .string()
      .min(1)
      .optional()
      .describe("folder copied to a fresh temp workspace for the run (relative to the server's folder); default an empty temp folder"),
    timeout_ms: timeoutMsField(
      `wall-clock cap of the run in ms (default ${DEFAULT_TEST_RUN_TIMEOUT_MS}); past it the run ends with stop_reason "error", verdict "failed" and a reason saying it timed out`,
    ),
  })
  .strict();

/** test_run arguments as the handler receives them. */
export type TestRunArgs = z.infer<typeof testRunInput>;

/** The TestRunResult of docs/mcp.md, test_run. */
export const testRunOutput = z.object({
  output: z.string().describe('text of the last assistant message'),
  tools: z
    .array(
      z.object({
        name: z.string(),
        called: z.number(),
        returned: z.number(),
        errors: z.number(),
        servers: z.record(z.number()).optional().describe("of the calls, those of an MCP server's tool of this name, by server"),
      }),
    )
    .describe('per tool, in first-call order: calls the model made, results returned, errors'),
  approvals: z.array(z.object({ tool: z.string(), decision: z.enum(['approve', 'deny', 'pending']) })),
  resolved: z
    .record(z.unknown())
    .nullable()
    .describe(
      'what actually ran: provider, model, max_turns, tools with permissions, skills, hashes; null when the run ended before its agent started (an MCP server that failed to start)',
    ),
  trace_id: z.string().describe("the run's trace; query its spans with query_spans"),
  stop_reason: z.enum(['end_turn', 'max_turns', 'paused', 'error', 'max_tokens', 'refusal', 'content_filter']),
  verdict: z.enum(['pass', 'incomplete', 'unconfirmed', 'failed']),
  verdict_reason: z.string().describe('why, naming the tool and the error when failed'),
  run_id: z
    .string()
    .optional()
    .describe(
      'set when the run waits at a gate: stop_reason "paused", or a resume_run that ended with an error before anything ran (the same run_id, still paused); give it to resume_run with a decision to continue the run',
    ),
});

/** How the tool introduces itself to a model. */
export const TEST_RUN_DESCRIPTION = [
  'Run an agent build once, headlessly, with an optional delta applied in memory (the build file is never changed), and score it.',
  'Returns the TestRunResult: verdict (pass | incomplete | unconfirmed | failed) with verdict_reason, per-tool call counts, approvals, output, stop_reason, the resolved config and the trace_id.',
  // docs/verdicts.md, The test_run verdict: a tool error is named before the run's own error (the script ran out after it).
  'Verdict order, the first that applies: the run timed out or was aborted -> failed; spans that are not one whole run -> unconfirmed (failed if the model stopped abnormally or the invoke errored);',
  'any tool error -> failed ("tool <name> failed: ...", also when the run then errored, e.g. the script ran out; but a call an external agent left unanswered when it failed or timed out is not a tool error: the reason names EXTERNAL_AGENT_FAILED or EXTERNAL_AGENT_TIMEOUT, while a call that failed before it is still named first);',
  'the model stopped abnormally (stop_reason max_tokens, refusal or content_filter) or the invoke errored (e.g. SCRIPT_EXHAUSTED) -> failed;',
  'no expectations.terminal_tool -> unconfirmed; terminal tool never called -> incomplete; terminal tool returned a result -> pass; otherwise (it waits at a gate, or was denied) -> unconfirmed.',
  'Give "script" to run offline with a scripted model (one entry per model call, e.g. [{"tool_calls": [{"name": "lookup_order", "args": {"order_id": "1234"}}]}, {"text": "Done."}]); without it the build\'s llm is called.',
  'Use query_spans with the returned trace_id to see every tool call, argument and result.',
  'A gated call nobody answered (no "approvals" entry) pauses the run: stop_reason "paused" with a run_id; resume_run with that run_id and a decision (approve | deny) continues it.',
  `Every run is capped at timeout_ms (default ${DEFAULT_TEST_RUN_TIMEOUT_MS} ms): past it the verdict is failed and the reason says it timed out.`,
  'A test_run started inside another run is refused (runs nest one level deep).',
].join(' ');
