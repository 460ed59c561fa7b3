import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ZodTypeAny } from 'zod';
import { formatPath } from '../../config/format-path.js';
import { isPlainObject } from '../../verdicts/args/json-value.js';

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The `arguments` of each tools/call request as the client sent them, kept from the transport
 * until the request is answered. JSON.parse keeps a `__proto__` key as an own key, but the SDK
 * parses `arguments` as a record, and the tools' zod records (`delta.set`, `approvals.tools`,
 * an inline build) parse theirs, and both leave such a key out: `{"delta": {"set": {"__proto__":
 * ...}}}` would run as no delta at all. Read as sent, it reaches the refusal the CLI gives it.
 */
export class SentArguments {
  private readonly byRequest = new Map<RequestId, unknown>();

  /** Watches `transport`, before a server connects to it: the server calls these before its own handlers. */
  watch(transport: Transport): void {
    const receive = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage, extra) => {
      if ('method' in message && message.method === 'tools/call' && 'id' in message) this.byRequest.set(message.id, message.params?.arguments);
      receive?.(message, extra);
    };
    const send = transport.send.bind(transport);
    // Answered (a result, or an error before the tool ran): nothing will read it any more.
    transport.send = (message, options) => {
      if ('id' in message && !('method' in message) && message.id !== undefined) this.byRequest.delete(message.id);
      return send(message, options);
    };
    const close = transport.onclose;
    transport.onclose = () => {
      this.byRequest.clear();
      close?.();
    };
  }

  /** The arguments request `id` was sent with; undefined when none were kept (a transport not watched). */
  take(id: RequestId): unknown {
    const sent = this.byRequest.get(id);
    this.byRequest.delete(id);
    return sent;
  }
}

/**
 * `handler` given the tool's arguments as the client sent them: the input schemas only check
 * (no defaults; query_spans' preprocess passes a valid value on unchanged), so these equal the
 * parsed ones but for the `__proto__` keys the parsing left out. A top-level `__proto__`
 * argument, which the SDK drops before the tool's schema sees it, is refused as that schema
 * refuses any unknown argument (docs/mcp.md, Tools).
 */
export function withSentArguments<A>(
  sent: SentArguments,
  tool: string,
  schema: ZodTypeAny,
  handler: (args: A, extra: ToolExtra) => Promise<CallToolResult>,
): (args: A, extra: ToolExtra) => Promise<CallToolResult> {
  return (parsed, extra) => {
    const raw = sent.take(extra.requestId);
    if (!isPlainObject(raw)) return handler(parsed, extra);
    if (Object.hasOwn(raw, '__proto__')) {
      const result = schema.safeParse(raw);
      const problems = result.success
        ? []
        : result.error.issues.map((issue) => (issue.path.length ? `${issue.message} at ${formatPath(issue.path)}` : issue.message));
      // The SDK's own words for an argument its schema refuses: McpServer makes it a tool error.
      throw new McpError(
        ErrorCode.InvalidParams,
        `Input validation error: Invalid arguments for tool ${tool}: ${problems.join('\n') || "Unrecognized key(s) in object: '__proto__'"}`,
      );
    }
    return handler(raw as A, extra);
  };
}
