import type { ComponentType } from '../revision/types.js';

/**
 * The keys each component type writes under `context:<name>` (docs/workflows.md, Components):
 * nothing else ever lands there but what the run's inputs.context gives, so a state key reading
 * another one could only pass vacuously.
 */
export const COMPONENT_OUTPUT_KEYS: Readonly<Record<ComponentType, readonly string[]>> = {
  deterministic_step: ['tool_result', 'error'],
  plan: ['tool_result', 'error'],
  agent: ['final_answer'],
  human_input: ['decision', 'response'],
  end: [],
};

/** The keys a component of `type` writes; none for a type the format does not know. */
export function componentOutputKeys(type: unknown): readonly string[] {
  return typeof type === 'string' && Object.hasOwn(COMPONENT_OUTPUT_KEYS, type) ? COMPONENT_OUTPUT_KEYS[type as ComponentType] : [];
}

/** The output a router of a component of `type` usually reads (docs/workflows.md: route on a step's `error`); undefined for an end component. */
export function routedOutputKey(type: unknown): string | undefined {
  const keys = componentOutputKeys(type);
  return keys.includes('error') ? 'error' : keys[0];
}
