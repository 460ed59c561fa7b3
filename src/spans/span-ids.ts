import { randomFillSync } from 'node:crypto';

// Random bytes are drawn in one call per pool and turned into hex once; ids are slices of that
// text: one crypto call, or one hex conversion, per span would cost more than the rest of the span.
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolHex = '';
let offset = POOL_BYTES;

/** A random 16-byte trace id as 32 lowercase hex characters (W3C: never all zeros). */
export function newTraceId(): string {
  return randomHex(16);
}

/** A random 8-byte span id as 16 lowercase hex characters (W3C: never all zeros). */
export function newSpanId(): string {
  return randomHex(8);
}

const ZERO_IDS: Record<number, string> = { 8: '0'.repeat(16), 16: '0'.repeat(32) };

function randomHex(bytes: number): string {
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolHex = pool.toString('hex');
    offset = 0;
  }
  const id = poolHex.slice(offset * 2, (offset + bytes) * 2);
  offset += bytes;
  // An all-zero id is invalid; the odds are 2^-64 at worst, but a redraw costs nothing.
  return id === ZERO_IDS[bytes] ? randomHex(bytes) : id;
}
