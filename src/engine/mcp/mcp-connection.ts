import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RunError } from '../../config/errors.js';
import { McpToolListing } from './mcp-tool-listing.js';
import { ProcessGroupTransport } from './process-group-transport.js';

/** How to reach one MCP server: its argv, folder and whole environment (stdio), or its url and headers (Streamable HTTP); its time limits. */
export interface McpLaunch {
  name: string;
  /** argv of a stdio server; exactly one of command and url. */
  command?: readonly string[];
  /** Endpoint of a Streamable HTTP server. */
  url?: string;
  /** Headers sent with every request to `url` (secrets filled in from the environment). */
  headers?: Readonly<Record<string, string>>;
  cwd: string;
  /** The whole environment of the server process; nothing else is inherited. */
  env: Readonly<Record<string, string>>;
  /** Limit for each call. */
  timeoutMs: number;
  /** Limit for start-up: initialize, then tools/list. */
  startTimeoutMs: number;
  /** The fetch of a `url` server's requests (live-fetch.ts: never through scenario mocks); default globalThis.fetch. */
  fetch?: typeof fetch;
}

/** Kept from the server's stderr for error messages. */
const STDERR_TAIL_CHARS = 2_000;

/**
 * One running MCP server over stdio (the SDK's Client over a ProcessGroupTransport) or Streamable
 * HTTP (StreamableHTTPClientTransport): started (connected) and listed once, called many times,
 * possibly concurrently. Once the process has exited or the session closed, `alive` is false and
 * calls fail fast instead of waiting for a dead pipe.
 */
export class McpConnection {
  /** The process has exited (the SDK reports the transport closed). */
  private exited = false;
  private closing = false;
  private stderrTail = '';
  private listed = McpToolListing.EMPTY;
  /** The stdio transport, which stops the server's whole process group. */
  private stdio: ProcessGroupTransport | undefined;
  /** The Streamable HTTP transport, whose session close() ends on the server too. */
  private http: StreamableHTTPClientTransport | undefined;

  private constructor(
    readonly launch: McpLaunch,
    private readonly client: Client,
  ) {}

  /**
   * Starts the server, initializes the session and lists its tools; throws RunError
   * MCP_START_FAILED. `signal` (a run's own server, never a shared one) cuts the start short.
   */
  static async open(launch: McpLaunch, signal?: AbortSignal): Promise<McpConnection> {
    const client = new Client({ name: 'agentcheck', version: '0.1.0' }, { capabilities: {} });
    const connection = new McpConnection(launch, client);
    const transport = connection.transport();
    client.onclose = () => {
      connection.exited = true;
    };
    // A start cut short (a run's time limit, an interrupt, the suite ending) stops the server at
    // once, as an aborted run's servers are (docs/mcp.md, Lifetime): it serves no call, so closing
    // its stdin and waiting 2 s for it would only hold the run. Listening before the SDK does
    // makes the SIGTERM go before the SDK's own polite close of the failed start.
    const cut = () => void connection.close({ urgent: true });
    signal?.addEventListener('abort', cut, { once: true });
    try {
      await client.connect(transport, { timeout: launch.startTimeoutMs, signal });
      connection.listed = await McpToolListing.list(client, launch.startTimeoutMs, signal);
      return connection;
    } catch (error) {
      await connection.close({ urgent: signal?.aborted === true });
      throw new RunError(
        'MCP_START_FAILED',
        `MCP server "${launch.name}" (${describeLaunch(launch)}) could not start: ${reason(error, launch.startTimeoutMs)}${connection.stderrHint()}`,
        { cause: error },
      );
    } finally {
      signal?.removeEventListener('abort', cut);
    }
  }

  /** The SDK transport of the launch: a child process over stdio, or Streamable HTTP to `url`. */
  private transport(): Transport {
    const { launch } = this;
    if (launch.url !== undefined) {
      this.http = new StreamableHTTPClientTransport(new URL(launch.url), { requestInit: { headers: { ...launch.headers } }, fetch: launch.fetch });
      return this.http;
    }
    const [command, ...args] = launch.command ?? [];
    this.stdio = new ProcessGroupTransport({ command, args, cwd: launch.cwd, env: launch.env });
    // Attached before start so early output (a crash message) is not lost; consuming it also
    // keeps a chatty server from blocking on a full stderr pipe.
    this.stdio.stderr.on('data', (chunk: Buffer) => this.keepStderr(chunk.toString('utf8')));
    return this.stdio;
  }

  /** The server's tools, as listed once at start-up: the usable ones and the malformed entries. */
  get listing(): McpToolListing {
    return this.listed;
  }

  /** False once the server process has exited or the session closed. */
  get alive(): boolean {
    return !this.exited && !this.closing;
  }

  /**
   * Calls one tool (`tools/call`) under the time limit; rejects on timeout, crash or abort.
   * `onSend` runs just before the request goes out, never for a call refused because the server is gone.
   */
  async callTool(name: string, args: Record<string, unknown>, options: { signal?: AbortSignal; onSend?: () => void } = {}): Promise<CallToolResult> {
    const { signal } = options;
    if (!this.alive) {
      throw new RunError(
        'MCP_SERVER_EXITED',
        `MCP server "${this.launch.name}" is not running: ${this.launch.url ? 'its session closed earlier' : 'it exited earlier'}${this.stderrHint()}`,
      );
    }
    options.onSend?.();
    try {
      this.listed.checkCallable(name);
      const result = (await this.client.callTool({ name, arguments: args }, undefined, { timeout: this.launch.timeoutMs, signal })) as CallToolResult;
      this.listed.checkResult(name, result);
      return result;
    } catch (error) {
      // The run was cut off (its time limit, an interrupt): the call was canceled, as a command is.
      if (signal?.aborted) throw new RunError('CANCELED', `MCP server "${this.launch.name}": tools/call ${name} was canceled (the run was aborted)`);
      if (isTimeout(error)) {
        throw new RunError('TIMEOUT', `MCP server "${this.launch.name}" did not answer tools/call ${name} within ${this.launch.timeoutMs} ms`);
      }
      const why = this.exited ? `the server exited${this.stderrHint()}` : reason(error, this.launch.timeoutMs);
      throw new RunError('MCP_CALL_FAILED', `MCP server "${this.launch.name}" failed on tools/call ${name}: ${why}`, { cause: error });
    }
  }

  /**
   * Ends the session and the server: a stdio server's whole process group is stopped (stdin
   * closed, SIGTERM 2 s later, then SIGKILL: ProcessGroupTransport.stop). `urgent` (the run was
   * aborted: its time limit, an interrupt) sends SIGTERM at once, so a server still busy with a
   * cut-off call does not hold the run for those 2 s.
   */
  async close(options: { urgent?: boolean } = {}): Promise<void> {
    this.closing = true;
    await this.stdio?.stop(options);
    // An HTTP server keeps running; its session is ended with a DELETE (a server without sessions refuses it, which is fine).
    if (this.http?.sessionId) await this.http.terminateSession().catch(() => undefined);
    await this.client.close().catch(() => undefined);
  }

  private keepStderr(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
  }

  private stderrHint(): string {
    const tail = this.stderrTail.trim();
    return tail ? `; its stderr ended with: ${tail}` : '';
  }
}

/** What the launch reaches, for error messages: the url, or the argv and folder. */
function describeLaunch(launch: McpLaunch): string {
  return launch.url !== undefined ? launch.url : `${(launch.command ?? []).join(' ')}, in ${launch.cwd}`;
}

function isTimeout(error: unknown): boolean {
  return (error as { code?: unknown })?.code === -32001; // ErrorCode.RequestTimeout
}

function reason(error: unknown, timeoutMs: number): string {
  if (isTimeout(error)) return `no answer within ${timeoutMs} ms`;
  return error instanceof Error ? error.message : String(error);
}
