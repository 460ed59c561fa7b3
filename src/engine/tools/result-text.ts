/** JSON that never throws (cycles, BigInt): tool values are evidence, not program state. */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)) ?? 'null';
  } catch {
    return JSON.stringify(String(value));
  }
}

/** Cuts long text, saying how much was cut. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}[truncated ${text.length - max} characters]`;
}

/**
 * The JSON of a tool result as its span keeps it (`gen_ai.tool.call.result`): at most `max`
 * characters and always valid JSON, so checks read the same value back (docs/spans.md). A result
 * too long has its long strings cut, each with a `[truncated N characters]` marker, shortest cut
 * first; only a result that is long without long strings becomes the cut JSON text as a string.
 */
export function spanResultJson(value: unknown, max: number): string {
  const whole = safeJson(value);
  if (whole.length <= max) return whole;
  for (let limit = max; limit >= MIN_STRING_KEPT; limit = Math.floor(limit / 2)) {
    const cut = safeJson(cutStrings(value, limit));
    if (cut.length <= max) return cut;
  }
  // Many short values: the text itself, cut, as one JSON string.
  const marker = `[truncated ${whole.length} characters]`;
  return JSON.stringify(`${whole.slice(0, Math.max(0, Math.floor(max / 2) - marker.length))}${marker}`);
}

/** Below this, cutting strings further says too little: the whole text is cut instead. */
const MIN_STRING_KEPT = 64;

/** `value` with every string longer than `limit` cut; a cycle is left to safeJson, which names it. */
function cutStrings(value: unknown, limit: number, ancestors = new Set<object>()): unknown {
  if (typeof value === 'string') return value.length <= limit ? value : `${value.slice(0, limit)}[truncated ${value.length - limit} characters]`;
  if (!value || typeof value !== 'object' || ancestors.has(value)) return value;
  ancestors.add(value);
  const cut = Array.isArray(value)
    ? value.map((item) => cutStrings(item, limit, ancestors))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutStrings(item, limit, ancestors)]));
  ancestors.delete(value);
  return cut;
}
