import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ZodTypeAny } from 'zod';
import { isPlainObject } from '../../verdicts/args/json-value.js';
import { argumentRefusal, unknownToolRefusal } from './argument-refusal.js';

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A refusal that comes before any argument is read (the recursion guard), or undefined to go on. */
export type FirstCheck = () => CallToolResult | undefined;

/**
 * The `arguments` of each tools/call request as the client sent them, kept from the transport
 * until the request is answered. JSON.parse keeps a `__proto__` key as an own key, but the SDK
 * parses `arguments` as a record, and the tools' zod records (`delta.set`, `approvals.tools`,
 * an inline build) parse theirs, and both leave such a key out: `{"delta": {"set": {"__proto__":
 * ...}}}` would run as no delta at all. Read as sent, it reaches the refusal the CLI gives it.
 * Arguments a tool's input schema refuses (a top-level `__proto__` among them) are answered here,
 * in agentcheck's words (argumentRefusal), before McpServer would answer them in zod's, which put
 * a key raw and uncut.
 */
export class SentArguments {
  private readonly byRequest = new Map<RequestId, unknown>();
  private readonly schemas = new Map<string, ZodTypeAny>();
  private readonly firstChecks = new Map<string, FirstCheck>();

  /**
   * Holds calls of `tool` to `schema` before the server sees them (withSentArguments registers
   * each tool's); `first`, when given, answers before the arguments' form is looked at.
   */
  check(tool: string, schema: ZodTypeAny, first?: FirstCheck): void {
    this.schemas.set(tool, schema);
    if (first) this.firstChecks.set(tool, first);
  }

  /**
   * Watches `transport`, before a server connects to it: once the server has put its handlers on
   * it (its connect starts the transport last), each message reaches these first.
   */
  watch(transport: Transport): void {
    const start = transport.start.bind(transport);
    transport.start = () => {
      this.intercept(transport);
      return start();
    };
  }

  private intercept(transport: Transport): void {
    const receive = transport.onmessage;
    const send = transport.send.bind(transport);
    transport.onmessage = (message: JSONRPCMessage, extra) => {
      if ('method' in message && message.method === 'tools/call' && 'id' in message) {
        const refused = this.refusal(message.params);
        if (refused) {
          // Answered here: the server never sees the call. A failed send is the transport's error, as the server's own would be.
          send({ jsonrpc: '2.0', id: message.id, result: refused }).catch((error: unknown) => transport.onerror?.(error as Error));
          return;
        }
        this.byRequest.set(message.id, message.params?.arguments);
      }
      receive?.(message, extra);
    };
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

  /**
   * The tool error for a call of a tool this server does not have, or whose arguments (as sent,
   * none being `{}` as for the SDK) its schema refuses; undefined for a call the server should
   * answer, also one whose `params` are not a call at all (the SDK refuses those itself).
   */
  private refusal(params: unknown): CallToolResult | undefined {
    if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
    const first = this.firstChecks.get(params.name)?.();
    if (first) return first;
    const args = params.arguments ?? {};
    if (!isPlainObject(args)) return undefined;
    const schema = this.schemas.get(params.name);
    return schema ? argumentRefusal(params.name, schema, args) : unknownToolRefusal(params.name);
  }
}

/**
 * `handler` given the tool's arguments as the client sent them: the input schemas only check
 * (no defaults; query_spans' preprocess passes a valid value on unchanged), so these equal the
 * parsed ones but for the `__proto__` keys the parsing left out. Registers `schema` with `sent`,
 * so arguments it refuses never reach the handler (docs/mcp.md, Tools); `first` answers before
 * them (docs/mcp.md, The recursion guard).
 */
export function withSentArguments<A>(
  sent: SentArguments,
  tool: string,
  schema: ZodTypeAny,
  handler: (args: A, extra: ToolExtra) => Promise<CallToolResult>,
  first?: FirstCheck,
): (args: A, extra: ToolExtra) => Promise<CallToolResult> {
  sent.check(tool, schema, first);
  return (parsed, extra) => {
    const raw = sent.take(extra.requestId);
    return handler(isPlainObject(raw) ? (raw as A) : parsed, extra);
  };
}
