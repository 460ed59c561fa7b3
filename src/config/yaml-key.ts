import type { Pair, YAMLMap } from 'yaml';
import type { PathSegments } from './format-path.js';

/** The string a YAML map key stands for (the key of the JS object the map becomes). */
export function keyOf(key: unknown): string | undefined {
  if (key && typeof key === 'object' && 'value' in key) return String((key as { value: unknown }).value);
  return key === undefined || key === null ? undefined : String(key);
}

/** The node guards of the `yaml` package the walk needs (source.ts loads the package lazily). */
export type YamlWalkGuards = Pick<typeof import('yaml'), 'isMap' | 'isSeq'>;

/** What walkYaml calls on the way. */
export interface YamlVisitor {
  /** Every node, before its children; a map key is visited at its map's path. */
  node?(node: unknown, path: PathSegments): void;
  /** Each pair of a map, before its key and value; false leaves both unvisited. */
  pair?(pair: Pair<unknown, unknown>, path: PathSegments, map: YAMLMap<unknown, unknown>): boolean | void;
}

/**
 * Walks a YAML node tree in document order, each value at its path (`agent.tools[2]`), for the
 * checks that read the tree rather than the parsed value (keys, numbers as written, positions).
 * Recursive: the nesting is checked first (MAX_DEPTH).
 */
export function walkYaml(root: unknown, guards: YamlWalkGuards, visitor: YamlVisitor): void {
  const visit = (node: unknown, path: PathSegments): void => {
    visitor.node?.(node, path);
    if (guards.isMap(node)) {
      for (const pair of node.items) {
        if (visitor.pair?.(pair, path, node) === false) continue;
        visit(pair.key, path);
        visit(pair.value, [...path, keyOf(pair.key) ?? '']);
      }
    } else if (guards.isSeq(node)) {
      node.items.forEach((item, index) => visit(item, [...path, index]));
    }
  };
  visit(root, []);
}
