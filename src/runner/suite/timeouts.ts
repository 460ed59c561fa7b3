import { setMaxListeners } from 'node:events';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';
import type { Turn } from '../../engine/turn.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { markRunError } from '../mark-run-error.js';

/** Per-run time limit when neither the scenario nor the suite sets one. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Wall-clock cap of one test_run (CLI, MCP, library) when the request sets no `timeout_ms`. */
export const DEFAULT_TEST_RUN_TIMEOUT_MS = 120_000;
/** The longest delay Node's timers hold; a larger one fires at once (TimeoutOverflowWarning). */
export const MAX_TIMEOUT_MS = MAX_TIMER_MS;
/**
 * How long an aborted run gets to wind down (kill its commands: SIGTERM, SIGKILL 2 s later; close
 * its model calls) before a suite gives up on it and writes its row without what it recorded.
 */
export const ABORT_GRACE_MS = 5_000;

/** Time the event loop was held by runs' own synchronous work (Deadline.hold), process-wide. */
let heldByRuns = 0;

/**
 * A run's time limit as an abort signal, the one mechanism suite runs and test_runs share:
 * `signal` aborts after `ms` or when `outer` aborts (an interrupt), and the engine stops at the
 * next model call, tool call or wait. `timedOut` tells the two apart afterwards.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  /** heldByRuns when this run began, and how much of it since was this run's own. */
  private readonly heldAtStart = heldByRuns;
  private ownHeld = 0;
  private readonly onOuterAbort: () => void;
  private expiredFlag = false;
  /** When the limit falls due (performance.now() time). */
  private readonly due: number;
  private graceTimer?: NodeJS.Timeout;
  /** Called once the signal aborts: plain callbacks, cheaper than a listener on the signal per run. */
  private readonly onAbort: Array<() => void> = [];

  /** `setting` names what set the limit, for the timeout message (`timeout_ms`, `--timeout`...). */
  constructor(
    readonly ms: number,
    private readonly outer?: AbortSignal,
    readonly setting = 'timeout_ms',
  ) {
    this.signal = this.controller.signal;
    // Each tool call of a turn may listen (parallel command calls): more than 10 is no leak.
    setMaxListeners(0, this.signal);
    this.due = performance.now() + ms;
    this.onOuterAbort = () => this.abort(outer?.reason);
    if (outer?.aborted) this.onOuterAbort();
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.timer = this.arm(ms);
  }

  /**
   * Fires at the limit; when other runs held the event loop meanwhile (a CPU-bound custom check
   * of theirs), this run could not go on either, so that time is added and the timer set again.
   */
  private arm(ms: number): NodeJS.Timeout {
    return setTimeout(
      () => {
        const left = this.due + this.heldByOthers - performance.now();
        if (left > 0) {
          this.timer = this.arm(left);
          return;
        }
        this.expiredFlag = true;
        this.abort(new Error(this.reason));
      },
      Math.min(ms, MAX_TIMEOUT_MS),
    );
  }

  /**
   * Runs `fn` (the synchronous part of a run's checks) and records how long it held the event
   * loop: counted against this run's limit, and not against the other runs in flight, which
   * could not move meanwhile (docs/cli.md, --timeout).
   */
  hold<T>(fn: () => T): T {
    const start = performance.now();
    try {
      return fn();
    } finally {
      const held = performance.now() - start;
      heldByRuns += held;
      this.ownHeld += held;
    }
  }

  /** How long other runs held the event loop since this one began. */
  private get heldByOthers(): number {
    return heldByRuns - this.heldAtStart - this.ownHeld;
  }

  /** The only way the signal aborts (the controller is private), so onAbort sees every abort. */
  private abort(reason: unknown): void {
    if (this.signal.aborted) return;
    this.controller.abort(reason);
    for (const callback of this.onAbort.splice(0)) callback();
  }

  /** Whether the time limit (not an interrupt) ended the run. */
  get timedOut(): boolean {
    return this.expiredFlag;
  }

  /**
   * Whether the limit has passed, also when its timer could not fire yet: a check that blocks
   * the event loop (a CPU-bound custom check) runs past it without the timer ever getting a turn.
   */
  get overdue(): boolean {
    if (!this.expiredFlag && !this.signal.aborted && performance.now() >= this.due + this.heldByOthers) {
      this.expiredFlag = true;
      this.abort(new Error(this.reason));
    }
    return this.expiredFlag;
  }

  /** The reason reports show: `timed out after N ms`. */
  get reason(): string {
    return `timed out after ${this.ms} ms`;
  }

  /** `the run timed out after N ms (setting)`. */
  get limitReason(): string {
    return `the run ${this.reason} (${this.setting})`;
  }

  /** The TIMEOUT error's message of a run that stopped at its limit with what it had recorded. */
  get message(): string {
    return `${this.limitReason}; the transcript so far is kept`;
  }

  /**
   * Resolves `graceMs` after the signal aborts (time limit or interrupt): the backstop for a run
   * that ignores its abort. Never resolves once disposed.
   */
  abandoned(graceMs: number, hurry?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const start = () => {
        if (hurry?.aborted) return resolve();
        this.graceTimer = setTimeout(resolve, graceMs);
        // A second interrupt gives up at once, without the rest of the grace.
        hurry?.addEventListener('abort', () => resolve(), { once: true });
      };
      if (this.signal.aborted) start();
      else this.onAbort.push(start);
    });
  }

  /** Stops the timers and the link to `outer`; call when the run is over. */
  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.graceTimer);
    this.onAbort.length = 0;
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}

/**
 * A run its deadline aborted ends with a TIMEOUT error, not the abort its engine saw (a model
 * call's MODEL_ABORTED): on the turn, and on the root span that reports the run (docs/spans.md),
 * so the spans and the verdict name the same cause. `spans` is the run's, joined.
 */
export function markTimedOut(turn: Turn, spans: SpanRecord[], deadline: Deadline): void {
  markRunError(turn, spans, { type: 'TIMEOUT', message: deadline.message });
}
