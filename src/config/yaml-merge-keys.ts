import type { Node } from 'yaml';
import type { PathSegments } from './source.js';
import { walkYaml } from './yaml-key.js';

/** The node guards of the `yaml` package, which source.ts loads lazily. */
type YamlGuards = Pick<typeof import('yaml'), 'isMap' | 'isSeq' | 'isScalar'>;

/**
 * Why a YAML merge key is refused: agentcheck reads YAML 1.2 core, where `<<` is an ordinary key,
 * so `<<: *base` would be read as an unknown key "<<" beside missing keys (docs/formats.md).
 */
export const MERGE_KEY_MESSAGE = "YAML merge keys (<<) are not supported; write the keys out, or share them through a scenarios file's defaults";

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
