/** Top-level keys only an agent build has (docs/formats.md, Agent build). */
export const BUILD_KEYS = new Set(['agent', 'flow', 'revision', 'external']);

/**
 * What a file named on the command line holds when its name does not say (docs/cli.md, validate):
 * an agent build when it has `id` beside a build key (or a near miss of `agent`) and neither
 * `name` nor `scenarios`, else a scenario. `run` refuses such a build as a scenario file and
 * `validate` checks it as a build: one rule, so `validate X && run X` agree on what X is.
 */
export function isAgentBuildShape(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return 'id' in value && !('name' in value) && !('scenarios' in value) && hasBuildKey(value);
}

/** A build key, or a near miss of `agent` (a misspelt build is still a build, to report as one). */
export function hasBuildKey(value: object): boolean {
  return Object.keys(value).some((key) => BUILD_KEYS.has(key) || nearAgent(key));
}

/** `agnet`, `agents`, `Agent`, `agen`: `agent` with its letters swapped, or one letter added, dropped or changed. */
function nearAgent(key: string): boolean {
  const word = key.toLowerCase();
  const target = 'agent';
  if ([...word].sort().join('') === [...target].sort().join('')) return true;
  if (Math.abs(word.length - target.length) > 1) return false;
  const [shorter, longer] = word.length <= target.length ? [word, target] : [target, word];
  let i = 0;
  while (i < shorter.length && shorter[i] === longer[i]) i++;
  // After the first difference the rest must match, skipping one letter of the longer word (or of both).
  return shorter.slice(i + (shorter.length === longer.length ? 1 : 0)) === longer.slice(i + 1);
}
