import type { LineCounter, Node } from 'yaml';
import { numberProblem } from './number-checks.js';
import type { PathSegments } from './source.js';
import { walkYaml } from './yaml-key.js';

type YamlModule = typeof import('yaml');

/** A number of a YAML file that cannot be read as written, where it is written. */
export interface YamlNumberProblem {
  path: PathSegments;
  line: number;
  column: number;
  message: string;
  /** The value as read (rounded), to tell the same number reached through an alias. */
  value: number;
}

/**
 * Every numeric scalar of a YAML node tree that cannot be read as written (docs/formats.md),
 * with its path and position, quoting the text as written (the value may be rounded already).
 * The tree sees `1e-400` (read as 0) and `1e400`, which the parsed value alone cannot tell.
 * Recursive: the nesting is checked first (MAX_DEPTH). A number used as a map key is reported
 * at the map's path.
 */
export function yamlNumberProblems(root: Node | null, lines: LineCounter, yaml: YamlModule): YamlNumberProblem[] {
  const found: YamlNumberProblem[] = [];
  walkYaml(root, yaml, {
    node(node, path) {
      if (!yaml.isScalar(node) || typeof node.value !== 'number') return;
      const literal = typeof node.source === 'string' && node.type === 'PLAIN' ? node.source : String(node.value);
      const message = numberProblem(literal, node.value);
      if (!message || !node.range) return;
      const pos = lines.linePos(node.range[0]);
      found.push({ path, line: pos.line, column: pos.col, message, value: node.value });
    },
  });
  return found;
}
