import { resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { memoryLocator } from '../../config/assert-format.js';
import { deepestPath } from '../../config/deepest-path.js';
import { TOO_DEEP } from '../../config/nesting-limit.js';
import { MAX_DEPTH } from '../../config/source.js';
import { RunError } from '../../config/errors.js';
import { readSpansJsonl } from '../../spans/jsonl.js';
import { checkTraceInFile } from '../../spans/trace-in-file.js';
import { presentAttributes, validateOwnAttributeKeys } from '../../spans/own-attribute-keys.js';
import { querySpans, validateQuery, type QueryCondition, type QueryFiltering, type SpanQuery } from '../../spans/query.js';
import { LOGICAL_OPERATORS, QUERY_FIELDS, QUERY_OPERATORS } from '../../spans/query-types.js';
import { enumChoice } from './enum-choice.js';
import { withSentArguments } from './sent-arguments.js';
import type { McpServerContext } from './server-context.js';
import { errorResult, structuredResult } from './tool-results.js';

/** Spans returned when the caller gives no windowing.limit: enough to read, small enough for a context window. */
export const DEFAULT_SPAN_LIMIT = 100;

type QueryNode = {
  field?: (typeof QUERY_FIELDS)[number];
  key?: string;
  operator?: (typeof QUERY_OPERATORS)[number] | (typeof LOGICAL_OPERATORS)[number];
  value?: unknown;
  conditions?: QueryNode[];
};

// One object type for conditions and groups alike (not a union of two objects): generic MCP
// clients such as the Inspector pick how to send an argument by its schema's `type`, and a union
// has none. Which of the two shapes a node is, and whether it is complete, validateQuery decides
// with the same messages as everywhere else: so `operator` is optional here, as a group's
// defaults to and (docs/query-spans.md) while a condition without one is refused there.
const queryNode: z.ZodType<QueryNode> = z.lazy(() =>
  z
    .object({
      field: enumChoice(QUERY_FIELDS).optional().describe('a condition: the span field to test; "attributes" needs "key"'),
      key: z.string().min(1).optional().describe('a condition on attributes: the attribute name, e.g. gen_ai.tool.name'),
      operator: enumChoice([...QUERY_OPERATORS, ...LOGICAL_OPERATORS])
        .optional()
        .describe(
          'a condition (required): is, eq, contains, matches, in, exists, ...; a group: and (all match; the default), or (any matches), not (none matches)',
        ),
      value: z.unknown().optional().describe('a condition: the value to compare with (none for exists / not_exists, a list for in / not_in)'),
      conditions: z.array(queryNode).min(1).optional().describe('a group: its conditions and nested groups'),
    })
    .strict(),
);

/**
 * A filtering nested deeper than any file may be is refused before zod walks it: its recursive
 * schema would otherwise overflow the stack on a few thousand levels (docs/security.md, Limits).
 */
function refuseTooDeep(value: unknown, ctx: z.RefinementCtx): unknown {
  const deep = deepestPath(value, MAX_DEPTH);
  if (!deep) return value;
  ctx.addIssue({ code: z.ZodIssueCode.custom, path: [...deep], message: TOO_DEEP });
  return undefined;
}

const queryInput = z
  .object({
    trace_id: z.string().min(1).optional().describe('only this run (the trace_id a test_run returned)'),
    file: z
      .string()
      .min(1)
      .optional()
      .describe("a spans.jsonl file (e.g. reports/spans.jsonl of `agentcheck run`) to query instead of this server's runs; relative to the server's folder"),
    filtering: z
      .preprocess(refuseTooDeep, queryNode.optional())
      .describe(
        'which spans: a condition {field, key?, operator, value} or a group {operator?: and|or|not (default and), conditions: [...]}, e.g. {"field": "name", "operator": "startswith", "value": "execute_tool"} or {"operator": "and", "conditions": [...]}',
      ),
    windowing: z
      .object({
        limit: z
          .number()
          .int()
          .min(1)
          .max(10_000)
          .optional()
          .describe(`at most this many spans (default ${DEFAULT_SPAN_LIMIT}); count still says how many matched`),
        order: enumChoice(['asc', 'desc']).optional().describe('by start time; default asc'),
      })
      .strict()
      .optional(),
  })
  .strict();

const queryOutput = z.object({
  count: z.number().describe('spans that matched, before the limit'),
  spans: z.array(z.record(z.unknown())).describe('span records: trace_id, span_id, parent_id, name, kind, status, start_ms, end_ms, duration_ms, attributes'),
});

const DESCRIPTION = [
  'Query the OpenTelemetry spans of the runs this server made (its last 200 test_run calls), or of a spans.jsonl file.',
  'Spans: "invoke_agent <agent>" (root), "chat <model>" per model call, "execute_tool <tool>" per tool call with attributes gen_ai.tool.name, gen_ai.tool.call.arguments, gen_ai.tool.call.result, agentcheck.tool.outcome (ok | error | denied | pending), and "approval <tool>".',
  'Fields: trace_id, span_id, parent_id, name, kind, status (unset | ok | error), attributes (with key), duration_ms.',
  'Operators: is, is_not, eq, neq, gt, gte, lt, lte, contains, startswith, endswith, matches, in, not_in, exists, not_exists.',
  'Example: {"trace_id": "<from test_run>", "filtering": {"field": "attributes", "key": "gen_ai.tool.name", "operator": "eq", "value": "create_refund"}}.',
].join(' ');

/** Registers `query_spans` (docs/query-spans.md) over the server's runs or a spans.jsonl file. */
export function registerQuerySpansTool(server: McpServer, context: McpServerContext): void {
  server.registerTool(
    'query_spans',
    {
      title: 'Query the spans of agent runs',
      description: DESCRIPTION,
      inputSchema: queryInput,
      outputSchema: queryOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    withSentArguments<z.infer<typeof queryInput>>(context.sent, 'query_spans', queryInput, (args) => runQuerySpans(args, context)),
  );
}

/** The handler: the query is validated like everywhere else (value types, safe regexes). */
export async function runQuerySpans(args: z.infer<typeof queryInput>, context: McpServerContext): Promise<CallToolResult> {
  try {
    const own: SpanQuery = { filtering: args.filtering as QueryFiltering | QueryCondition | undefined, windowing: args.windowing };
    validateQuery(own, memoryLocator('arguments'));
    const spans = args.file ? await fileSpans(args.file, args.trace_id, context) : memorySpans(args.trace_id, context);
    // As the CLI and a spans check: an agentcheck.* / gen_ai.* key no span here carries and agentcheck never writes could never match.
    validateOwnAttributeKeys(own, memoryLocator('arguments'), presentAttributes(spans));
    const conditions: Array<QueryFiltering | QueryCondition> = [];
    if (args.trace_id) conditions.push({ field: 'trace_id', operator: 'eq', value: args.trace_id });
    if (own.filtering) conditions.push(own.filtering);
    const result = querySpans(spans, {
      filtering: conditions.length > 1 ? { operator: 'and', conditions } : conditions[0],
      windowing: { limit: args.windowing?.limit ?? DEFAULT_SPAN_LIMIT, order: args.windowing?.order ?? 'asc' },
    });
    return structuredResult(result);
  } catch (error) {
    return errorResult(error);
  }
}

/** A spans.jsonl file's spans; a trace_id it does not hold is refused as the CLI's --trace is. */
async function fileSpans(file: string, traceId: string | undefined, context: McpServerContext) {
  const spans = await readSpansJsonl(resolve(context.cwd, file));
  if (traceId !== undefined) checkTraceInFile(spans, traceId, file);
  return spans;
}

/** A trace this server never ran (or already forgot) is an error that says what to do instead. */
function memorySpans(traceId: string | undefined, context: McpServerContext) {
  const { history } = context;
  if (traceId !== undefined && !history.has(traceId)) {
    throw new RunError(
      'UNKNOWN_TRACE',
      `no run with trace_id ${traceId} among the ${history.size} run(s) this server keeps (the last ${history.maxRuns}); for a run made elsewhere give "file": the spans.jsonl it was written to`,
    );
  }
  return history.spans(traceId);
}
