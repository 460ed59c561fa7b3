import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, ListToolsResultSchema, McpError, ToolSchema, type CallToolResult, type Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import * as z from 'zod/v4';
import { capEchoed } from '../../config/cap-text.js';
import { describeValue } from '../../config/describe-value.js';
import { formatPath } from '../../config/format-path.js';
import { mcpResultAjv } from '../../config/json-schema.js';
import { withArticle } from '../../config/indefinite-article.js';
import { valueAt } from '../../config/schema-problem.js';

/** A tools/list entry that is not a usable MCP tool: its name when it has one, its place in the listing, what is wrong (one line). */
export interface MalformedMcpTool {
  name?: string;
  index: number;
  problem: string;
}

/** A server's tools/list, all pages: its usable tools and its malformed entries (docs/mcp.md, Tools). */
export class McpToolListing {
  private constructor(
    /** The usable tools, in the server's order. */
    readonly tools: readonly McpToolInfo[],
    readonly malformed: readonly MalformedMcpTool[],
    /** The name of every entry that has one, usable or not, in the server's order. */
    readonly names: readonly string[],
    /** Checks a tool's structuredContent against its outputSchema, by the server's name for it. */
    private readonly outputCheckers: ReadonlyMap<string, JsonSchemaValidator<unknown>>,
  ) {}

  /** No tools: what a connection holds before it has listed. */
  static readonly EMPTY = new McpToolListing([], [], [], new Map());

  /**
   * tools/list, following pagination cursors. Each entry is held to the SDK's schema for a tool
   * one by one, not the listing as a whole (the SDK's listTools refuses every tool for one bad
   * entry), so a malformed entry only matters to a build that offers it (mcp-toolset.ts).
   */
  static async list(client: Client, timeout: number, signal?: AbortSignal): Promise<McpToolListing> {
    const entries: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : undefined }, LOOSE_LISTING, { timeout, signal });
      entries.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return McpToolListing.of(entries);
  }

  /** The listing of these tools/list entries. */
  static of(entries: readonly unknown[]): McpToolListing {
    const tools: McpToolInfo[] = [];
    const malformed: MalformedMcpTool[] = [];
    const checkers = new Map<string, JsonSchemaValidator<unknown>>();
    // One validator per server: Ajv keeps schemas by $id, and two servers may use the same $id.
    let validator: AjvJsonSchemaValidator | undefined;
    entries.forEach((entry, index) => {
      const name = entryName(entry);
      const named = name === undefined ? {} : { name };
      const parsed = ToolSchema.safeParse(entry);
      if (!parsed.success) {
        malformed.push({ ...named, index, problem: issuesText(parsed.error.issues, entry) });
        return;
      }
      const tool = parsed.data;
      if (tool.outputSchema) {
        try {
          validator ??= new AjvJsonSchemaValidator(mcpResultAjv());
          checkers.set(tool.name, validator.getValidator(tool.outputSchema as JsonSchemaType));
        } catch (error) {
          malformed.push({ ...named, index, problem: `at outputSchema, a JSON Schema that cannot be compiled: ${capEchoed((error as Error).message)}` });
          return;
        }
      }
      tools.push(tool);
    });
    const names = entries.map(entryName).filter((name) => name !== undefined);
    return new McpToolListing(tools, malformed, names, checkers);
  }

  /**
   * Refuses a call the SDK's callTool refuses once listTools has listed the tool (the listing here
   * is not the SDK's): a tool that requires task-based execution, which a plain tools/call cannot run.
   */
  checkCallable(name: string): void {
    if (this.tools.find((tool) => tool.name === name)?.execution?.taskSupport === 'required') {
      throw new McpError(ErrorCode.InvalidRequest, `Tool "${name}" requires task-based execution, which agentcheck does not use`);
    }
  }

  /**
   * Refuses a result as the SDK's callTool does for a tool with an outputSchema: without
   * structuredContent (unless it is an error), or with structuredContent the schema refuses.
   */
  checkResult(name: string, result: CallToolResult): void {
    const check = this.outputCheckers.get(name);
    if (!check) return;
    if (!result.structuredContent) {
      if (result.isError) return;
      throw new McpError(ErrorCode.InvalidRequest, `Tool ${name} has an output schema but did not return structured content`);
    }
    const checked = check(result.structuredContent);
    if (!checked.valid) throw new McpError(ErrorCode.InvalidParams, `Structured content does not match the tool's output schema: ${checked.errorMessage}`);
  }
}

/** The SDK's tools/list result with its tools left unchecked: ToolSchema checks each entry on its own. */
const LOOSE_LISTING = ListToolsResultSchema.extend({ tools: z.array(z.unknown()) });

type Issue = z.core.$ZodIssue;

/** An entry's name, when it has one (a string). */
function entryName(entry: unknown): string | undefined {
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** What the SDK's tool schema found wrong with an entry, in one line: `at inputSchema.required, expected an array, got number 5`. */
function issuesText(issues: readonly Issue[], entry: unknown): string {
  return capEchoed(issues.map((issue) => issueText(issue, entry)).join('; '));
}

function issueText(issue: Issue, entry: unknown): string {
  const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
  const value = valueAt(entry, path);
  const at = path.length ? `at ${formatPath(path)}, ` : '';
  if (issue.code === 'invalid_type') {
    const expected = `expected ${withArticle(issue.expected)}`;
    return `${at}${value === undefined ? `missing: ${expected}` : `${expected}, got ${describeValue(value)}`}`;
  }
  if (issue.code === 'invalid_value') return `${at}expected ${issue.values.map((allowed) => JSON.stringify(allowed)).join(' | ')}, got ${describeValue(value)}`;
  return `${at}${issue.message}`;
}
