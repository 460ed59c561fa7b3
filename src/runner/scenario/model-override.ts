import type { LlmSpec } from '../../engine/revision/types.js';

/**
 * A scenario's (or the suite's) `model:` over the agent's `llm` (docs/formats.md): each given
 * key replaces the agent's; `parameters` is replaced as a whole, never merged, so the request
 * carries exactly the parameters the override names (merging once sent both `max_tokens` and
 * `max_completion_tokens`). An override that changes the provider keeps nothing of the agent's
 * llm: its model, parameters and endpoint belong to the other provider.
 */
export function overrideLlm(current: OverriddenLlm, override: Readonly<Partial<LlmSpec>>): OverriddenLlm {
  const provider = override.provider ?? current.provider;
  const base = provider !== current.provider ? { model: provider === 'scripted' ? 'scripted' : undefined } : current;
  const out: OverriddenLlm = { ...base, ...override, provider };
  for (const [key, value] of Object.entries(out)) if (value === undefined) Reflect.deleteProperty(out, key);
  return out;
}

/** An llm after overrides: its provider is known; its model may be missing (a switch that named none). */
export type OverriddenLlm = Partial<LlmSpec> & Pick<LlmSpec, 'provider'>;
