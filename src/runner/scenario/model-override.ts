import type { LlmSpec } from '../../engine/revision/types.js';

/**
 * A scenario's (or the suite's) `model:` over the agent's `llm` (docs/formats.md): each given
 * key replaces the agent's; `parameters` is replaced as a whole, never merged, so the request
 * carries exactly the parameters the override names (merging once sent both `max_tokens` and
 * `max_completion_tokens`). An override that changes the provider keeps nothing of the agent's
 * llm: its model, parameters and endpoint belong to the other provider.
 */
export function overrideLlm(current: LlmSpec, override: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const switches = override.provider !== undefined && override.provider !== current.provider;
  const base: Record<string, unknown> = switches ? { model: override.provider === 'scripted' ? 'scripted' : undefined } : { ...current };
  const out: Record<string, unknown> = { ...base, ...override };
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}
