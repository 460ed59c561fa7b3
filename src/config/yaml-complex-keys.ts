import type { LineCounter, Node } from 'yaml';
import type { PathSegments } from './source.js';
import { keyOf, walkYaml } from './yaml-key.js';

/** The node guards of the `yaml` package, which source.ts loads lazily. */
type YamlGuards = Pick<typeof import('yaml'), 'isAlias' | 'isCollection' | 'isMap' | 'isNode' | 'isScalar' | 'isSeq'>;

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

/** A list or mapping used as a key: the path of its mapping, the key's position, and the mapping's scalar keys. */
export interface ComplexKey {
  path: PathSegments;
  line: number;
  column: number;
  /** The mapping's other keys, as the value holds them: any other key of its object is made up from a complex key. */
  scalarKeys: ReadonlySet<string>;
}

/**
 * Every mapping key of a YAML node tree that is a list or a mapping (also through an alias, or
 * given to the parser as one of `placeholders`: yaml-flow-keys.ts), at the path of its mapping and
 * the position of the key, in document order. The tree's depth is already bounded.
 */
export function complexKeys(root: Node | null, lines: LineCounter, guards: YamlGuards, placeholders?: ReadonlySet<string>): ComplexKey[] {
  const found: ComplexKey[] = [];
  // Anchors as met in document order: an alias means the last one of its name before it.
  const anchors = new Map<string, Node>();
  // Each mapping's scalar keys, filled as the walk goes (a found key holds its mapping's set).
  const scalarKeys = new WeakMap<object, Set<string>>();
  walkYaml(root, guards, {
    node(node) {
      if (guards.isNode(node) && node.anchor) anchors.set(node.anchor, node);
    },
    pair(pair, path, map) {
      let scalars = scalarKeys.get(map);
      if (!scalars) scalarKeys.set(map, (scalars = new Set()));
      const key = guards.isAlias(pair.key) ? anchors.get(pair.key.source) : pair.key;
      const masked = placeholders !== undefined && guards.isScalar(key) && placeholders.has(String(key.value));
      if (!guards.isCollection(key) && !masked) {
        scalars.add(keyOf(key) ?? '');
        return;
      }
      const start = (pair.key as Node | null)?.range?.[0];
      if (start !== undefined) {
        const pos = lines.linePos(start);
        found.push({ path, line: pos.line, column: pos.col, scalarKeys: scalars });
      }
    },
  });
  return found;
}

/**
 * The paths of the keys a parsed value holds for the complex keys found in it: the string a
 * parser made of each (`a,b`, `[object Object]`), which no reader wrote, so a problem there (an
 * unknown key) is the complex key's own, said once.
 */
export function madeUpKeyPaths(value: unknown, found: readonly ComplexKey[]): PathSegments[] {
  const paths: PathSegments[] = [];
  const done = new Set<ReadonlySet<string>>();
  for (const key of found) {
    if (done.has(key.scalarKeys)) continue;
    done.add(key.scalarKeys);
    let object = value;
    for (const segment of key.path) object = (object as Record<string | number, unknown> | null)?.[segment];
    if (!object || typeof object !== 'object') continue;
    for (const name of Object.keys(object)) if (!key.scalarKeys.has(name)) paths.push([...key.path, name]);
  }
  return paths;
}
