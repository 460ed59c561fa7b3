import type { ToolKindName } from '../../../spans/conventions.js';
import type { ToolSpec } from '../../revision/types.js';
import type { Tool } from '../tool.js';

/** What every tool kind takes from its spec: name, description, parameters, read_only, permission. */
export type ToolHeader = Omit<Tool, 'execute' | 'builtin'>;

/** The shared part of a tool built from a spec; each kind adds its own `execute`. */
export function toolHeader(spec: ToolSpec, kind: ToolKindName): ToolHeader {
  return {
    name: spec.name,
    description: spec.description ?? '',
    parameters: spec.parameters ?? { type: 'object' },
    readOnly: spec.read_only ?? false,
    permission: spec.permission,
    kind,
  };
}
