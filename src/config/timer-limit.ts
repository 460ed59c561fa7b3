/**
 * The longest delay Node's timers hold (2^31 - 1 ms, about 24.8 days): a larger one fires at once
 * with a TimeoutOverflowWarning, so every time limit and delay a file or flag gives is capped
 * here and a larger value refused (docs/security.md, Hostile files).
 */
export const MAX_TIMER_MS = 2_147_483_647;
