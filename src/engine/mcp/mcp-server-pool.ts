import { abortSignalProblem } from '../../config/abort-signal-problem.js';
import { ConfigError, RunError } from '../../config/errors.js';
import type { McpConnection, McpLaunch } from './mcp-connection.js';

/**
 * The MCP servers of a suite run (or of one run): each distinct launch (name, argv or url and
 * headers, folder, env) is started (connected) once, on first use, shared by every run that needs it, and stopped by
 * close(). A server that exited since is started again for the next run; a failed start is
 * remembered, so every later run fails fast with the same error instead of retrying.
 */
export class McpServerPool {
  private readonly servers = new Map<string, Promise<McpConnection>>();
  private closed = false;

  /** Aborted by close() (and by the owning run's signal): cuts short the starts still under way. */
  private readonly stopping = new AbortController();

  /** The run (or suite) that owns this pool: once it is aborted, close() stops the servers at once. */
  private readonly owner: AbortSignal | undefined;

  /** `signal`: the run that owns this pool; aborting it cuts short the starts of its servers. */
  constructor(signal?: AbortSignal) {
    // A library caller's argument: said as every option is, never a TypeError from addEventListener.
    const problem = signal === undefined ? null : abortSignalProblem(signal);
    if (problem) throw new ConfigError({ file: 'new McpServerPool', path: 'signal' }, problem);
    this.owner = signal;
    if (signal?.aborted) this.stopping.abort(signal.reason);
    else signal?.addEventListener('abort', () => this.stopping.abort(signal.reason), { once: true });
  }

  /** The running server for this launch, started if needed; rejects with MCP_START_FAILED. */
  async open(launch: McpLaunch): Promise<McpConnection> {
    if (this.closed) throw new RunError('MCP_POOL_CLOSED', `MCP server "${launch.name}" requested after its suite ended`);
    const key = JSON.stringify([launch.name, launch.command, launch.url, launch.headers, launch.cwd, launch.env, launch.timeoutMs, launch.startTimeoutMs]);
    const current = this.servers.get(key);
    if (!current) return this.start(key, launch);
    const connection = await current;
    if (connection.alive) return connection;
    // Exited (crashed) since an earlier run: restart it once, unless a concurrent run already did.
    const latest = this.servers.get(key);
    return latest && latest !== current ? latest : this.start(key, launch);
  }

  /** Stops every server started (and the starts under way); waits for them to exit. Later open() calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    // A server still starting (a hung start waits for its start_timeout_ms) is not waited for.
    this.stopping.abort(new Error('its suite or run ended'));
    const starts = [...this.servers.values()];
    this.servers.clear();
    const urgent = this.owner?.aborted ?? false;
    await Promise.all(starts.map(async (start) => (await start.catch(() => undefined))?.close({ urgent })));
  }

  private start(key: string, launch: McpLaunch): Promise<McpConnection> {
    // Loaded on first use, so runs of builds without MCP servers never load the SDK.
    const started = import('./mcp-connection.js').then(({ McpConnection }) => McpConnection.open(launch, this.stopping.signal));
    this.servers.set(key, started);
    return started;
  }
}
