import { setTimeout as delay } from 'node:timers/promises';
import type { ToolSpecOf } from '../revision/types.js';
import type { Tool } from '../tools/tool.js';
import { runChain } from './run-chain.js';
import { toolHeader } from '../tools/kinds/tool-header.js';

/** Options of a chain tool; tests inject `sleep` so retry backoff never waits. */
export interface ChainToolOptions {
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A composite tool chain (docs/workflows.md, Tool chains). The chain result is always returned; a failed chain
 * is an error outcome (`chain_failed`) that carries the same result object.
 */
export function createChainTool(spec: ToolSpecOf<'chain'>, options: ChainToolOptions = {}): Tool {
  const chain = spec.chain;
  const sleep = options.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
  return {
    ...toolHeader(spec, 'chain'),
    async execute(args, ctx) {
      const result = await runChain(chain, spec.name, args, {
        callTool: (call) => ctx.callTool(call),
        tracer: ctx.tracer,
        parent: ctx.spanContext,
        sleep,
      });
      return result.success ? { result, isError: false } : { result, isError: true, errorType: 'chain_failed' };
    },
  };
}
