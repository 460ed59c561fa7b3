import { setTimeout as delay } from 'node:timers/promises';
import type { ToolSpecOf } from '../revision/types.js';
import type { Tool } from '../tools/tool.js';
import { runChain } from './run-chain.js';
import { toolHeader } from '../tools/kinds/tool-header.js';

/** Options of a chain tool; tests inject `sleep` so retry backoff never waits. */
export interface ChainToolOptions {
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Waits `ms`, or less when the run's signal aborts (the chain then stops before its next step). */
function backoff(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * A composite tool chain (docs/workflows.md, Tool chains). The chain result is always returned; a failed chain
 * is an error outcome (`chain_failed`) that carries the same result object.
 */
export function createChainTool(spec: ToolSpecOf<'chain'>, options: ChainToolOptions = {}): Tool {
  const chain = spec.chain;
  const sleep = options.sleep ?? backoff;
  return {
    ...toolHeader(spec, 'chain'),
    async execute(args, ctx) {
      const result = await runChain(chain, spec.name, args, {
        callTool: (call) => ctx.callTool(call),
        tracer: ctx.tracer,
        parent: ctx.spanContext,
        sleep,
        signal: ctx.signal,
      });
      return result.success ? { result, isError: false } : { result, isError: true, errorType: 'chain_failed' };
    },
  };
}
