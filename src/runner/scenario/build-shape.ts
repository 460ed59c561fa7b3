import { closestWord } from '../../config/did-you-mean.js';

/** Top-level keys only an agent build has (docs/formats.md, Agent build). */
export const BUILD_KEYS = new Set(['agent', 'flow', 'revision', 'external']);

/**
 * What a file named on the command line holds when its name does not say (docs/cli.md, validate):
 * an agent build when it has `id` (or a near miss: `idd`, `ID`) beside a build key (or a near
 * miss of one), or an `agent` that is a mapping (a scenario's is a path), and neither `name` nor
 * `scenarios`; else a scenario. `run` refuses such a build as a scenario file and `validate`
 * checks it as a build: one rule, so `validate X && run X` agree on what X is.
 */
export function isAgentBuildShape(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  if ('name' in value || 'scenarios' in value) return false;
  const agent = (value as { agent?: unknown }).agent;
  return (hasIdKey(value) && hasBuildKey(value)) || (typeof agent === 'object' && agent !== null && !Array.isArray(agent));
}

/** `id`, or a near miss of it (`idd`, `ID`): a misspelt build id is still a build's. */
export function hasIdKey(value: object): boolean {
  return Object.keys(value).some((key) => ID_NEAR_MISSES.has(key.toLowerCase()));
}

const ID_NEAR_MISSES = new Set(['id', 'idd', 'iid', 'di', 'ids']);

/** A build key, or a near miss of one (a misspelt build is still a build, to report as one). */
export function hasBuildKey(value: object): boolean {
  return Object.keys(value).some((key) => BUILD_KEYS.has(key) || nearAgent(key) || closestWord(key, OTHER_BUILD_KEYS) !== undefined);
}

// `extrnal`, `flw`: near misses of the other build keys (`agent`'s are nearAgent's, stricter).
const OTHER_BUILD_KEYS = ['flow', 'revision', 'external'];

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
