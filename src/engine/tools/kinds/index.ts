import { IMPLEMENTATION_KEYS, type ImplementationKey } from '../../revision/schema.js';
import type { BuiltinName, ToolSpec } from '../../revision/types.js';
import { createChainTool } from '../../chain/chain-tool.js';
import { createPlanTool } from '../../plan/plan-tool.js';
import type { Tool } from '../tool.js';
import { createBuiltinTool } from './builtin-tool-kind.js';
import { createCommandTool } from './command-tool.js';
import { createHttpTool } from './http-tool.js';
import { createReturnsTool } from './returns-tool.js';

type Factory = (spec: ToolSpec) => Tool;

/**
 * Implementation key -> factory (docs/formats.md, Tools). A map only; adding a tool kind is its
 * own file, one line here and its spec in the build schema (whose IMPLEMENTATION_KEYS the type
 * below ties to this map). Validation has ensured exactly one key is set.
 */
export const TOOL_KINDS: { readonly [Key in ImplementationKey]: Factory } = {
  builtin: (spec) => createBuiltinTool(spec as ToolSpec & { builtin: BuiltinName }),
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
    if (key in spec) return TOOL_KINDS[key](spec);
  }
  throw new Error(`tool "${spec.name}" has no implementation key`);
}
