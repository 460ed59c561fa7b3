/** Per-run time limit when neither the scenario nor the suite sets one. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Wall-clock cap of one test_run (CLI, MCP, library) when the request sets no `timeout_ms`. */
export const DEFAULT_TEST_RUN_TIMEOUT_MS = 120_000;
/** The longest delay Node's timers hold; a larger one fires at once (TimeoutOverflowWarning). */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * A run's time limit as an abort signal, the one mechanism suite runs and test_runs share:
 * `signal` aborts after `ms` or when `outer` aborts (an interrupt), and the engine stops at the
 * next model call, tool call or wait. `timedOut` tells the two apart afterwards.
 */
export class Deadline {
  readonly signal: AbortSignal;
  /** Resolves when the time limit is reached (never when only `outer` aborts). */
  readonly expired: Promise<void>;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onOuterAbort: () => void;
  private expiredFlag = false;

  constructor(readonly ms: number, private readonly outer?: AbortSignal) {
    this.signal = this.controller.signal;
    this.onOuterAbort = () => this.controller.abort(outer?.reason);
    if (outer?.aborted) this.onOuterAbort();
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    let expire!: () => void;
    this.expired = new Promise<void>((resolve) => (expire = resolve));
    this.timer = setTimeout(() => {
      this.expiredFlag = true;
      this.controller.abort(new Error(this.reason));
      expire();
    }, Math.min(ms, MAX_TIMEOUT_MS));
  }

  /** Whether the time limit (not an interrupt) ended the run. */
  get timedOut(): boolean {
    return this.expiredFlag;
  }

  /** The reason reports show: `timed out after N ms`. */
  get reason(): string {
    return `timed out after ${this.ms} ms`;
  }

  /** Stops the timer and the link to `outer`; call when the run is over. */
  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}
