import { IMPLEMENTATION_KEYS, type ImplementationKey } from '../../revision/tool-schema.js';
import type { ToolSpec, ToolSpecOf } from '../../revision/types.js';
import { createChainTool } from '../../chain/chain-tool.js';
import { createPlanTool } from '../../plan/plan-tool.js';
import type { Tool } from '../tool.js';
import { createBuiltinTool } from './builtin-tool-kind.js';
import { createCommandTool } from './command-tool.js';
import { createHttpTool } from './http-tool.js';
import { createReturnsTool } from './returns-tool.js';

/**
 * Implementation key -> factory (docs/formats.md, Tools). A map only; adding a tool kind is its
 * own file, one line here and its spec in the build schema (whose IMPLEMENTATION_KEYS the type
 * below ties to this map). Validation has ensured exactly one key is set.
 */
export const TOOL_KINDS: { readonly [Key in ImplementationKey]: (spec: ToolSpecOf<Key>) => Tool } = {
  builtin: createBuiltinTool,
  http: createHttpTool,
  command: createCommandTool,
  chain: createChainTool,
  plan: createPlanTool,
  returns: createReturnsTool,
};

export { IMPLEMENTATION_KEYS, type ImplementationKey };

/** Builds the runnable tool for one validated tool spec. */
export function buildTool(spec: ToolSpec): Tool {
  for (const key of IMPLEMENTATION_KEYS) {
    if (hasImplementation(spec, key)) return build(key, spec);
  }
  throw new Error(`tool "${spec.name}" has no implementation key`);
}

// Generic in the key, so TypeScript pairs the factory with the spec it narrowed.
function build<K extends ImplementationKey>(key: K, spec: ToolSpecOf<K>): Tool {
  return TOOL_KINDS[key](spec);
}

function hasImplementation<K extends ImplementationKey>(spec: ToolSpec, key: K): spec is ToolSpecOf<K> {
  return key in spec;
}
