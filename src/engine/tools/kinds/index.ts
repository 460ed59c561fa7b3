import type { BuiltinName, ToolSpec } from '../../revision/types.js';
import { createChainTool } from '../../chain/chain-tool.js';
import { createPlanTool } from '../../plan/plan-tool.js';
import type { Tool } from '../tool.js';
import { createBuiltinTool } from './builtin-tool-kind.js';
import { createCommandTool } from './command-tool.js';
import { createHttpTool } from './http-tool.js';
import { createReturnsTool } from './returns-tool.js';

type Factory = (spec: ToolSpec) => Tool;

/** Implementation key -> factory (docs/formats.md, Tools). Validation has ensured exactly one key is set. */
const FACTORIES: Record<'builtin' | 'http' | 'command' | 'chain' | 'plan' | 'returns', Factory> = {
  builtin: (spec) => createBuiltinTool(spec as ToolSpec & { builtin: BuiltinName }),
  http: createHttpTool,
  command: createCommandTool,
  chain: createChainTool,
  plan: createPlanTool,
  returns: createReturnsTool,
};

/** Builds the runnable tool for one validated tool spec. */
export function buildTool(spec: ToolSpec): Tool {
  for (const key of Object.keys(FACTORIES) as Array<keyof typeof FACTORIES>) {
    if (key in spec) return FACTORIES[key](spec);
  }
  throw new Error(`tool "${spec.name}" has no implementation key`);
}
