/**
 * pass@k: the chance that at least one of k runs drawn without replacement from n runs with c
 * passes passes, 1 - C(n-c, k) / C(n, k) (Chen et al. 2021, "Evaluating Large Language Models
 * Trained on Code"; Inspect AI's pass_at(k) reducer). Computed as the paper's product
 * 1 - prod_{i=n-c+1..n} (1 - k/i), which never forms the huge binomials.
 */
export function passAtK(n: number, c: number, k: number): number {
  checkArguments(n, c, k);
  if (n - c < k) return 1;
  // pass@1 is the pass rate c/n exactly, as pass^1 is (the product would leave 0.3999... for 2/5).
  if (k === 1) return c / n;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/**
 * pass^k: the chance that all of k runs drawn without replacement pass, C(c, k) / C(n, k)
 * (Yao et al. 2024, "tau-bench"). Computed as prod_{i=0..k-1} (c-i)/(n-i).
 */
export function passHatK(n: number, c: number, k: number): number {
  checkArguments(n, c, k);
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}

function checkArguments(n: number, c: number, k: number): void {
  // A programming error, not user input: the caller only asks for k up to the repeats it has.
  if (!(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k) && k >= 1 && k <= n && c >= 0 && c <= n)) {
    throw new RangeError(`pass@k needs integers 0 <= c <= n and 1 <= k <= n; got n=${n}, c=${c}, k=${k}`);
  }
}
