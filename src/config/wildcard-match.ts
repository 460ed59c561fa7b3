/**
 * Whether `text` matches `pattern`, in which each `*` stands for any run of characters (also
 * none) and everything else is literal. Greedy with one step back to the last `*`, so it takes
 * at most (pattern length x text length) steps: a URL of 6,000 characters against
 * `https://shop.test/orders/*-*-*` is instant, where the equivalent backtracking regex
 * (`.*-.*-.*`) takes minutes (docs/security.md).
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
