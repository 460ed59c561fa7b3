import type { BuiltinName, ToolSpecOf } from '../../revision/types.js';
import { BUILTINS } from '../builtins/index.js';
import type { Tool } from '../tool.js';

/** A built-in as a tool: the built-in brings parameters and read_only; given values override them. */
export function createBuiltinTool(spec: ToolSpecOf<'builtin'>): Tool {
  const builtin = BUILTINS[spec.builtin];
  return {
    name: spec.name,
    description: spec.description ?? builtin.description,
    parameters: spec.parameters ?? builtin.parameters,
    readOnly: spec.read_only ?? builtin.readOnly,
    permission: spec.permission,
    kind: 'builtin',
    builtin: spec.builtin,
    async execute(args, ctx) {
      return { result: await builtin.run(args, ctx), isError: false };
    },
  };
}

/** Every built-in under its own name, for plans and chains that call one the agent does not list. */
export function builtinFallbackTools(): ReadonlyMap<string, Tool> {
  // Built once: the tools are stateless, and every run of a suite asks for the same set.
  if (!fallback) {
    fallback = new Map();
    for (const name of Object.keys(BUILTINS) as BuiltinName[]) fallback.set(name, createBuiltinTool({ name, builtin: name }));
  }
  return fallback;
}

let fallback: Map<string, Tool> | undefined;
