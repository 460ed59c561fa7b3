import type { AgentOutput } from './agent-output.js';
import type { EngineRun } from './engine-run.js';

/** The http engine (docs/external-agents.md): POSTs `{messages, context, delta}` to `external.http.url`. */
export async function runHttpEngine(_run: EngineRun): Promise<AgentOutput> {
  throw new Error('not yet');
}
