import type { LineCounter, Node } from 'yaml';
import type { PathSegments } from './source.js';
import { walkYaml } from './yaml-key.js';

/** The node guards of the `yaml` package, which source.ts loads lazily. */
type YamlGuards = Pick<typeof import('yaml'), 'isAlias' | 'isCollection' | 'isMap' | 'isNode' | 'isSeq'>;

/**
 * Why a list or a mapping used as a mapping key is refused: an object key is a string, so
 * `? [a]: 1` would be read as the key "a" and `{x: 1}: 2` as "[object Object]" (docs/formats.md).
 */
export const COMPLEX_KEY_MESSAGE = 'a mapping key must be a scalar such as a name, not a list or a mapping';

/**
 * Whether a YAML text may hold a list or mapping as a key: an explicit `? ` key, or a flow
 * collection followed by `:`. Only such texts (and those with anchors) need the walk below.
 */
export function mayHaveComplexKey(text: string): boolean {
  return /(?:^|[\s,[{])\?(?:[ \t]|$)|[\]}][ \t]*:/m.test(text);
}

/**
 * Every mapping key of a YAML node tree that is a list or a mapping (also through an alias), at
 * the path of its mapping and the position of the key, in document order. The tree's depth is
 * already bounded.
 */
export function complexKeys(root: Node | null, lines: LineCounter, guards: YamlGuards): Array<{ path: PathSegments; line: number; column: number }> {
  const found: Array<{ path: PathSegments; line: number; column: number }> = [];
  // Anchors as met in document order: an alias means the last one of its name before it.
  const anchors = new Map<string, Node>();
  walkYaml(root, guards, {
    node(node) {
      if (guards.isNode(node) && node.anchor) anchors.set(node.anchor, node);
    },
    pair(pair, path) {
      const key = guards.isAlias(pair.key) ? anchors.get(pair.key.source) : pair.key;
      const start = (pair.key as Node | null)?.range?.[0];
      if (guards.isCollection(key) && start !== undefined) {
        const pos = lines.linePos(start);
        found.push({ path, line: pos.line, column: pos.col });
      }
    },
  });
  return found;
}
