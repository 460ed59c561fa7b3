/** Whether a delta may change the build's llm: a `set` key or `remove` path naming `llm` (or the whole agent or external part). */
export function touchesLlm(delta: unknown): boolean {
  if (!delta || typeof delta !== 'object' || Array.isArray(delta)) return true;
  const { set, remove } = delta as { set?: unknown; remove?: unknown };
  const parts = /^(agent|external)$/;
  const names = (path: string) => path.split(/[.[\]]/).filter(Boolean);
  const setTouches = (value: unknown, depth: number): boolean =>
    !!value &&
    typeof value === 'object' &&
    Object.entries(value).some(([key, inner]) => {
      const segments = names(key);
      if (segments.includes('llm')) return true;
      // `set: {agent: 5}` or `set: {"agent": null}` replaces the whole part, its llm with it.
      if (depth === 0 && segments.length === 1 && parts.test(key) && (!inner || typeof inner !== 'object')) return true;
      return setTouches(inner, depth + 1);
    });
  const removeTouches = Array.isArray(remove) && remove.some((path) => typeof path !== 'string' || names(path).includes('llm') || parts.test(path));
  return setTouches(set, 0) || removeTouches;
}
