import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { ChainResult } from '../../../src/engine/chain/chain-result.js';
import { createChainTool } from '../../../src/engine/chain/chain-tool.js';
import { createPromptSecurity } from '../../../src/engine/security/prompt-security.js';
import type { Tool } from '../../../src/engine/tools/tool.js';
import { ToolCaller } from '../../../src/engine/tools/tool-caller.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';

/** A tool that fails `failures` times, then returns {ok: true}. */
function failing(failures: number): Tool & { calls: number } {
  const tool = {
    name: 'shaky',
    description: 's',
    parameters: { type: 'object' },
    readOnly: true,
    kind: 'returns' as const,
    calls: 0,
    async execute() {
      return ++tool.calls <= failures ? { result: 'not yet', isError: true } : { result: { ok: true }, isError: false };
    },
  };
  return tool;
}

describe('chain retry backoff', () => {
  it('waits backoff_ms, doubling each retry, through the injected sleep', async () => {
    const waits: number[] = [];
    const shaky = failing(3);
    const chain = createChainTool(
      { name: 'retrying', chain: { steps: [{ tool: 'shaky', on_failure: { action: 'retry', max_retries: 5, backoff_ms: 100 } }] } },
      { sleep: async (ms) => void waits.push(ms) },
    );
    const caller = new ToolCaller({
      tools: new Map<string, Tool>([
        ['shaky', shaky],
        ['retrying', chain],
      ]),
      agent: { name: 'a' },
      security: createPromptSecurity(),
      tracer: trace.getTracer('test'),
      workspace: FolderWorkspace.temp(),
      env: {},
    });
    const call = await caller.call({ name: 'retrying', args: {}, source: 'model', parent: ROOT_CONTEXT });
    const result = call.result as ChainResult;
    expect(call.isError).toBe(false);
    expect(waits).toEqual([100, 200, 400]);
    expect(shaky.calls).toBe(4);
    expect(result.results.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    expect(result.final_state).toEqual({});
  });
});
