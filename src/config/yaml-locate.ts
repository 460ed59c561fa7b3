import type { LineCounter, Node } from 'yaml';
import type { PathSegments, ShownPath } from './format-path.js';
import { keyOf, type YamlWalkGuards } from './yaml-key.js';

/*
 * Where a path sits in a YAML node tree, for located errors (SourceDocument.locate). Of a key
 * given twice, the last is the one the value holds, so each lookup takes the last.
 */

/** The node at `path`, else its nearest ancestor that exists (the root for none). */
export function nearestNode(root: Node | null, path: ShownPath, guards: YamlWalkGuards): Node | null {
  let node: Node | null = root;
  let found: Node | null = node;
  for (const segment of path) {
    if (!node) break;
    let next: Node | null = null;
    if (guards.isMap(node)) {
      const pair = node.items.findLast((item) => keyOf(item.key) === String(segment));
      // Point at the key for a present entry: that is what a reader looks for.
      if (pair) next = (pair.value as Node | null) ?? (pair.key as Node);
    } else if (guards.isSeq(node) && typeof segment === 'number') {
      next = (node.items[segment] as Node | undefined) ?? null;
    }
    if (!next) break;
    node = next;
    found = next;
  }
  return found;
}

/** The key node of the last segment of `path` when its mapping exists and the key has a position. */
export function keyNode(root: Node | null, path: ShownPath, guards: YamlWalkGuards): Node | undefined {
  const parent = path.slice(0, -1);
  const last = path[path.length - 1];
  let node: Node | null = root;
  for (const segment of parent) {
    if (guards.isMap(node)) {
      node = (node.items.findLast((item) => keyOf(item.key) === String(segment))?.value as Node) ?? null;
    } else if (guards.isSeq(node) && typeof segment === 'number') {
      node = (node.items[segment] as Node) ?? null;
    } else {
      node = null;
    }
  }
  if (!guards.isMap(node)) return undefined;
  const key = node.items.findLast((item) => keyOf(item.key) === String(last))?.key as Node | undefined;
  return key?.range?.[0] === undefined ? undefined : key;
}

/** A node's line and column (1-based), or nothing when it has no position. */
export function positionOf(node: Node | null | undefined, lines: LineCounter): { line?: number; column?: number } {
  const offset = node?.range?.[0];
  if (offset === undefined) return {};
  const pos = lines.linePos(offset);
  return { line: pos.line, column: pos.col };
}

/** The keys of the mapping at exactly `path`, in the order written (each once); undefined when it is no mapping. */
export function mappingKeys(root: Node | null, path: PathSegments, guards: YamlWalkGuards): string[] | undefined {
  let node: Node | null = root;
  for (const segment of path) {
    if (guards.isMap(node)) node = (node.items.findLast((item) => keyOf(item.key) === String(segment))?.value as Node) ?? null;
    else if (guards.isSeq(node) && typeof segment === 'number') node = (node.items[segment] as Node) ?? null;
    else return undefined;
  }
  if (!guards.isMap(node)) return undefined;
  return [...new Set(node.items.map((item) => keyOf(item.key)))].filter((key): key is string => typeof key === 'string');
}
