import type { Node } from 'yaml';
import type { PathSegments } from './source.js';
import { walkYaml } from './yaml-key.js';
import { setOwn } from './own-key.js';
import { valueAt } from './schema-problem.js';

/** The node guards of the `yaml` package, which source.ts loads lazily. */
type YamlGuards = Pick<typeof import('yaml'), 'isMap' | 'isSeq' | 'isScalar'>;

/**
 * Why a YAML merge key is refused: agentcheck reads YAML 1.2 core, where `<<` is an ordinary key,
 * so `<<: *base` would be read as an unknown key "<<" beside missing keys (docs/formats.md). A
 * reader adds advice that fits its kind of file (ReadOptions.mergeKeyAdvice).
 */
export const MERGE_KEY_MESSAGE = 'YAML merge keys (<<) are not supported; write the keys out';

/** The advice a merge key directly in a scenario gets: a scenarios file has a place for a scenario's shared keys. */
export const SCENARIO_MERGE_KEY_ADVICE = "or share them through a scenarios file's defaults";

/**
 * The path of every plain (unquoted) `<<` key in a YAML node tree, in document order. Aliases
 * are not followed: each key is reported where it is written. The tree's depth is already bounded.
 */
export function mergeKeyPaths(root: Node | null, guards: YamlGuards): PathSegments[] {
  const found: PathSegments[] = [];
  walkYaml(root, guards, {
    pair(pair, path) {
      const key = pair.key;
      if (!guards.isScalar(key) || key.value !== '<<' || key.type !== 'PLAIN') return true;
      found.push([...path, '<<']);
      return false;
    },
  });
  return found;
}

/** A key a merge key brought into its mapping: problems there are located at the merge key. */
export interface MergedKey {
  path: PathSegments;
  mergeKey: PathSegments;
}

/**
 * `value` with each merge key at `paths` (mergeKeyPaths) applied as YAML 1.1 would: the keys of
 * the mapping (or list of mappings, the first one winning) it names are added where not written
 * beside it, and the `<<` key is dropped. Only for reporting the file's other problems in the same
 * pass: a loader then sees neither an unknown key "<<" nor the keys it stood for as missing.
 * `value` itself is left as it is; `merged` says which keys came from which merge key.
 */
export function withMergeKeysApplied(value: unknown, paths: readonly PathSegments[]): { value: unknown; merged: MergedKey[] } {
  const copy = structuredClone(value);
  const merged: MergedKey[] = [];
  // Deepest first: a merge key inside a merged mapping is applied before that mapping is copied.
  for (const mergeKey of [...paths].sort((a, b) => b.length - a.length)) {
    const at = mergeKey.slice(0, -1);
    const holder = valueAt(copy, at);
    if (!isMapping(holder) || !Object.hasOwn(holder, '<<')) continue;
    const sources = holder['<<'];
    delete holder['<<'];
    for (const source of Array.isArray(sources) ? sources : [sources]) {
      if (!isMapping(source)) continue;
      for (const [key, entry] of Object.entries(source)) {
        if (Object.hasOwn(holder, key)) continue;
        setOwn(holder, key, entry);
        merged.push({ path: [...at, key], mergeKey });
      }
    }
  }
  return { value: copy, merged };
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
