/** `; did you mean "temperature"?` for a name that differs from a known one by case or a letter or two. */
export function didYouMean(value: string, known: Iterable<string>): string {
  const lower = value.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = name.toLowerCase() === lower ? 0 : editDistance(name.toLowerCase(), lower);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best ? `; did you mean "${best.name}"?` : '';
}

/** Levenshtein distance, cut off at 3 (only small differences matter for a suggestion). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_v, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}
