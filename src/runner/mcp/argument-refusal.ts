import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodIssue, ZodTypeAny } from 'zod';
import { capEchoed, quoteCapped, shownName } from '../../config/cap-text.js';
import { describeValue } from '../../config/describe-value.js';
import { valueAt } from '../../config/schema-problem.js';
import { MAX_MESSAGE_CHARS, MAX_PATH_CHARS } from '../../config/errors.js';
import { formatPath } from '../../config/format-path.js';
import { escapeUnprintableInMessage } from '../../config/quote-text.js';
import { serverRedactor } from './tool-results.js';

/**
 * The tool error for a call whose arguments its tool's input schema refuses, or undefined when
 * they match. Said in the SDK's words (`MCP error -32602: Input validation error: Invalid
 * arguments for tool test_run: Unrecognized key(s) in object: "expectations2"`), but with every
 * key quoted and cut as any echoed value is (quoteCapped) and paths as a file's (formatPath):
 * zod's own text puts a key raw and whole, so an argument named `\u001b[2J` would reach the
 * client's terminal (docs/security.md, Hostile files).
 */
export function argumentRefusal(tool: string, schema: ZodTypeAny, args: unknown): CallToolResult | undefined {
  const parsed = schema.safeParse(args);
  if (parsed.success) return undefined;
  const problems = parsed.error.issues.map((issue) => issueText(issue, args)).join('\n');
  return refusal(`Input validation error: Invalid arguments for tool ${tool}: ${problems}`);
}

/** The tool error for a call of a tool the server does not have, the name shown as a message may show it. */
export function unknownToolRefusal(name: string): CallToolResult {
  return refusal(`Tool ${shownName(name)} not found`);
}

/** `text` as the tool error McpServer makes of an McpError with code InvalidParams. */
function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text: serverRedactor().text(new McpError(ErrorCode.InvalidParams, text).message) }], isError: true };
}

/** One problem: `<what> at <path>`, as the SDK words it, escaped and cut as a located error is. */
function issueText(issue: ZodIssue, args: unknown): string {
  const what =
    issue.code === 'unrecognized_keys'
      ? `Unrecognized key(s) in object: ${issue.keys.map((key) => quoteCapped(key)).join(', ')}`
      : (ownWords(issue, args) ?? issue.message);
  const at = issue.path.length ? ` at ${capEchoed(formatPath(issue.path), MAX_PATH_CHARS)}` : '';
  return capEchoed(escapeUnprintableInMessage(`${what}${at}`), MAX_MESSAGE_CHARS);
}

/**
 * A bound or type problem in agentcheck's words, with the value given (`expected a number >= 100,
 * got number 99`), as its file checks say them; undefined for the other kinds (zod's own text).
 */
function ownWords(issue: ZodIssue, args: unknown): string | undefined {
  const value = valueAt(args, issue.path);
  const got = `got ${describeValue(value)}`;
  if (issue.code === 'invalid_type') return issue.received === 'undefined' ? `missing: expected ${issue.expected}` : `expected ${issue.expected}, ${got}`;
  if (issue.code !== 'too_small' && issue.code !== 'too_big') return undefined;
  const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  const [most, least] = issue.code === 'too_small' ? ['least', '>'] : ['most', '<'];
  if (issue.type === 'number') return `expected a number ${least}${issue.inclusive ? '=' : ''} ${bound}, ${got}`;
  if (issue.type === 'array') {
    const count = Array.isArray(value) ? `got ${value.length} item${value.length === 1 ? '' : 's'}` : got;
    return `expected at ${most} ${bound} item${bound === 1 ? '' : 's'}, ${count}`;
  }
  if (issue.type === 'string') return `expected at ${most} ${bound} character${bound === 1 ? '' : 's'}, ${got}`;
  return undefined;
}
