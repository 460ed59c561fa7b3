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
 * own file plus one line here (and its spec in the build schema). Validation has ensured exactly
 * one key is set.
 */
export const TOOL_KINDS = {
  builtin: (spec) => createBuiltinTool(spec as ToolSpec & { builtin: BuiltinName }),
  http: createHttpTool,
  command: createCommandTool,
  chain: createChainTool,
  plan: createPlanTool,
  returns: createReturnsTool,
} as const satisfies Record<string, Factory>;

/** A tool kind's implementation key. */
export type ImplementationKey = keyof typeof TOOL_KINDS;

/** The implementation keys a tool spec may use, exactly one per tool (derived from TOOL_KINDS). */
export const IMPLEMENTATION_KEYS = Object.keys(TOOL_KINDS) as ImplementationKey[];

/** Builds the runnable tool for one validated tool spec. */
export function buildTool(spec: ToolSpec): Tool {
  for (const key of IMPLEMENTATION_KEYS) {
    if (key in spec) return TOOL_KINDS[key](spec);
  }
  throw new Error(`tool "${spec.name}" has no implementation key`);
}
