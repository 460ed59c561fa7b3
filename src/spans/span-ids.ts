import { randomFillSync } from 'node:crypto';

// Random bytes are drawn in one call per pool and handed out in slices: one crypto call per
// span would cost more than the rest of the span.
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let offset = POOL_BYTES;

/** A random 16-byte trace id as 32 lowercase hex characters (W3C: never all zeros). */
export function newTraceId(): string {
  return randomHex(16);
}

/** A random 8-byte span id as 16 lowercase hex characters (W3C: never all zeros). */
export function newSpanId(): string {
  return randomHex(8);
}

function randomHex(bytes: number): string {
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const start = offset;
  offset += bytes;
  // An all-zero id is invalid; the odds are 2^-64 at worst, but a redraw costs nothing.
  for (let i = start; i < offset; i++) if (pool[i] !== 0) return pool.toString('hex', start, offset);
  return randomHex(bytes);
}
