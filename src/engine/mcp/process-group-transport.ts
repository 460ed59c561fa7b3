import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { endProcessGroup, PIPE_GRACE_MS, signal, type ProcessSignal } from '../tools/process/run-processes.js';

/** How long a stop waits for the server to exit after closing its stdin, and again after SIGTERM (docs/mcp.md, Lifetime). */
const STOP_STEP_MS = 2_000;

/** The process of a stdio MCP server. `env` is its whole environment: nothing is inherited. */
export interface StdioServerProcess {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

/**
 * The client side of a stdio MCP server, as the SDK's StdioClientTransport, except that the
 * server leads its own process group and the whole group is ended (docs/security.md, Process
 * trees): background children it left end when it exits, a stop ends the group, and the pipes
 * are destroyed once the server is gone, so a child that escaped the group and still holds
 * them can neither delay the exit being seen nor keep the harness alive.
 */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr; readable before start(), so early output (a crash message) is not lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly buffer = new ReadBuffer();
  private leaderExited = false;
  private readonly leaderExit: Promise<void>;
  private markLeaderExited: () => void = () => {};
  private closed = false;
  /** Settles when the session is over (finish()). */
  private readonly ended: Promise<void>;
  private markEnded: () => void = () => {};
  private stopping: Promise<void> | undefined;
  private urgentSent = false;

  constructor(private readonly server: StdioServerProcess) {
    this.leaderExit = new Promise((resolve) => (this.markLeaderExited = resolve));
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
  }

  /** Starts the server process; rejects when it cannot be spawned (not found, not executable). */
  start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupTransport already started');
    const { command, args, cwd, env } = this.server;
    return new Promise((resolve, reject) => {
      // Its own process group (and session), so the group can be signalled as a whole.
      const child = spawn(command, args, { cwd, env, stdio: 'pipe', shell: false, detached: true });
      this.child = child;
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        resolve();
      });
      child.on('error', (error) => {
        if (!spawned) reject(error);
        this.onerror?.(error);
      });
      child.once('exit', () => this.onLeaderExit());
      // Every pipe closed and the process gone: the session is over.
      child.once('close', () => this.finish());
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr.pipe(this.stderr);
    });
  }

  /** The server's pid once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Writes one message to the server's stdin. */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin?.writable || this.stopping) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** The SDK's close (Client.close, a failed initialize): a polite stop. */
  close(): Promise<void> {
    return this.stop();
  }

  /**
   * Stops the server: stdin closed; the group gets SIGTERM if the server still runs 2 s later,
   * SIGKILL 2 s after that; `urgent` sends SIGTERM at once (also to a polite stop under way). Then
   * what is left of the group is ended and the pipes destroyed. Resolves once that is done.
   */
  stop(options: { urgent?: boolean } = {}): Promise<void> {
    // Once: a second SIGTERM could end a server still in its own SIGTERM handler.
    if (options.urgent && !this.urgentSent) {
      this.urgentSent = true;
      this.signalGroup('SIGTERM');
    }
    this.stopping ??= this.stopSequence(options.urgent === true);
    return this.stopping;
  }

  private async stopSequence(urgent: boolean): Promise<void> {
    const child = this.child;
    const pgid = child?.pid;
    if (!child || pgid === undefined) return this.finish();
    if (!this.leaderExited) {
      // An urgent stop has sent SIGTERM already (stop()).
      if (!urgent) {
        child.stdin.end();
        if (!(await within(this.leaderExit, STOP_STEP_MS))) this.signalGroup('SIGTERM');
      }
      if (!(await within(this.leaderExit, STOP_STEP_MS))) this.signalGroup('SIGKILL');
    }
    // Background children the server left in its group end with it; awaited, so the SIGKILL of
    // one that ignores SIGTERM is sent before the harness may exit.
    await endProcessGroup(pgid, { hold: true });
    this.destroyPipes();
    // A process that survives SIGKILL (stuck in the kernel) is not waited for, nor kept alive for.
    if (!(await within(this.ended, STOP_STEP_MS))) child.unref();
    this.finish();
  }

  /** The server exited: what is left of its group is ended with it, and its pipes are read for a grace period, then destroyed. */
  private onLeaderExit(): void {
    this.leaderExited = true;
    this.markLeaderExited();
    const pgid = this.child?.pid;
    if (pgid !== undefined) void endProcessGroup(pgid);
    // A child that left the group (setsid) may hold stdout open: the exit is seen anyway.
    setTimeout(() => this.destroyPipes(), PIPE_GRACE_MS).unref();
  }

  private signalGroup(name: Exclude<ProcessSignal, 0>): void {
    const pgid = this.child?.pid;
    if (pgid !== undefined && !this.leaderExited) signal(-pgid, name);
  }

  private destroyPipes(): void {
    this.child?.stdin.destroy();
    this.child?.stdout.destroy();
    this.child?.stderr.destroy();
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // A message past the buffer limit: the stream cannot be trusted any more.
      this.onerror?.(error as Error);
      void this.stop();
      return;
    }
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        // A line that is not JSON-RPC: reported, the next one is read.
        this.onerror?.(error as Error);
      }
    }
  }

  /** Reports the end of the session once. */
  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.markEnded();
    this.onclose?.();
  }
}

/** Whether `promise` settles within `ms`; the timer is cleared as soon as it does. */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
