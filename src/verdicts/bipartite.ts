/**
 * Maximum bipartite matching (Kuhn's augmenting paths) between expected calls (left) and
 * actual calls (right). Greedy first-fit, as BFCL's parallel checker does, can miss a
 * matching that exists when one call fits several expectations; this never does.
 * Sizes are a run's tool calls, so O(V * E) is tiny. Left vertices are added in order and the
 * matching stays maximum after each, so the first unmatched left vertex ends the longest prefix
 * that can be matched in full (trajectory in_order relies on it).
 */
export function maxMatching(left: number, right: number, fits: (l: number, r: number) => boolean): { leftToRight: number[]; rightToLeft: number[] } {
  const edges: number[][] = [];
  for (let l = 0; l < left; l++) {
    const row: number[] = [];
    for (let r = 0; r < right; r++) if (fits(l, r)) row.push(r);
    edges.push(row);
  }
  const leftToRight = new Array<number>(left).fill(-1);
  const rightToLeft = new Array<number>(right).fill(-1);
  const augment = (l: number, seen: boolean[]): boolean => {
    for (const r of edges[l]) {
      if (seen[r]) continue;
      seen[r] = true;
      if (rightToLeft[r] === -1 || augment(rightToLeft[r], seen)) {
        leftToRight[l] = r;
        rightToLeft[r] = l;
        return true;
      }
    }
    return false;
  };
  for (let l = 0; l < left; l++) augment(l, new Array<boolean>(right).fill(false));
  return { leftToRight, rightToLeft };
}
