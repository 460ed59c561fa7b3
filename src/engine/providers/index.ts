import type { Model } from '../model/model.js';
import type { LlmSpec } from '../revision/types.js';
import type { CreateModelOptions } from './provider-entry.js';
import { providerEntry } from './registry.js';
import { scriptedModelOf } from './scripted.js';

export type { CreateModelOptions } from './provider-entry.js';

/** The embedded default when a build names no llm. */
export const DEFAULT_LLM: LlmSpec = { provider: 'scripted', model: 'scripted' };

/** Creates the model a run uses: a script (checked where it was given) wins over the build's provider. */
export function createModel(llm: LlmSpec | undefined, options: CreateModelOptions = {}): Model {
  const spec = llm ?? DEFAULT_LLM;
  if (options.script) return scriptedModelOf(options.script, spec.provider === 'scripted' ? spec.model : 'scripted', options.scriptStart);
  return providerEntry(spec.provider).create(spec, options);
}
