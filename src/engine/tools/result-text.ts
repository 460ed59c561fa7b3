import { cutLength } from '../../config/cap-text.js';

/** JSON that never throws (cycles, BigInt): tool values are evidence, not program state. */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)) ?? 'null';
  } catch {
    return JSON.stringify(String(value));
  }
}

/** Cuts long text, saying how much was cut; never inside a surrogate pair (an emoji stays whole or goes). */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = cutLength(text, max);
  return `${text.slice(0, kept)}[truncated ${text.length - kept} characters]`;
}

/**
 * The JSON of a tool result as its span keeps it (`gen_ai.tool.call.result`): at most `max`
 * characters and always valid JSON, so checks read the same value back (docs/spans.md). A result
 * too long has its long strings cut, each with a `[truncated N characters]` marker, and its long
 * lists cut, with a `[truncated N items]` item, as little as it takes; only a result that stays
 * long once cut becomes its cut JSON text, as one string. `json`: the value's JSON, when the
 * caller has it already.
 */
export function spanResultJson(value: unknown, max: number, json = safeJson(value)): string {
  const whole = json;
  if (whole.length <= max) return whole;
  // Room for the quotes and the marker a cut string adds.
  for (let limit = max - 100; limit >= MIN_STRING_KEPT; limit = Math.floor(limit * 0.75)) {
    const cut = safeJson(cutValues(value, limit));
    if (cut.length <= max) return cut;
  }
  const marker = `[truncated ${whole.length} characters]`;
  return JSON.stringify(`${whole.slice(0, cutLength(whole, Math.max(0, Math.floor(max / 2) - marker.length)))}${marker}`);
}

/** Below this, cutting further says too little: the whole text is cut instead. */
const MIN_STRING_KEPT = 64;

/**
 * `value` with every string longer than `limit` characters cut, and every list longer than
 * `limit / 100` items cut to that many (then a marker item); a cycle is left to safeJson.
 */
function cutValues(value: unknown, limit: number, ancestors = new Set<object>()): unknown {
  if (typeof value === 'string') return capText(value, limit);
  if (!value || typeof value !== 'object' || ancestors.has(value)) return value;
  ancestors.add(value);
  let cut: unknown;
  if (Array.isArray(value)) {
    const kept = Math.max(1, Math.floor(limit / 100));
    const items = value.slice(0, kept).map((item) => cutValues(item, limit, ancestors));
    cut = value.length > kept ? [...items, `[truncated ${value.length - kept} items]`] : items;
  } else {
    cut = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutValues(item, limit, ancestors)]));
  }
  ancestors.delete(value);
  return cut;
}
