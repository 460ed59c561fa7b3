/**
 * The tool calls an MCP server is still answering. When the client goes away, the server aborts
 * them and waits for them to end before it exits: an aborted test_run removes its workspace copy
 * as it ends, and a process that exited first left that copy in the temp folder (docs/mcp.md).
 */
export class CallsInFlight {
  private readonly calls = new Set<Promise<unknown>>();

  /** `call`, remembered until it settles. */
  track<T>(call: Promise<T>): Promise<T> {
    this.calls.add(call);
    const forget = () => void this.calls.delete(call);
    call.then(forget, forget);
    return call;
  }

  /**
   * Resolves once every call tracked so far has settled, or after `limitMs`: a run that ignores
   * its abort must not keep the server from exiting (the suite's backstop gives the same grace).
   */
  async settled(limitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMs);
      timer.unref();
    });
    try {
      await Promise.race([Promise.allSettled([...this.calls]), limit]);
    } finally {
      clearTimeout(timer);
    }
  }
}
