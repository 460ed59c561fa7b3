import { ModelError } from '../../config/errors.js';
import type { Model } from '../model/model.js';
import type { LlmSpec } from '../revision/types.js';
import { AnthropicMessagesModel } from './anthropic.js';
import type { HttpModelOptions } from './http-model-options.js';
import { OpenAIChatModel } from './openai.js';
import { ScriptedModel, type ScriptEntry } from './scripted.js';

export interface CreateModelOptions {
  /** A scenario's `model.script`: when given, the scripted model runs whatever the build says. */
  script?: readonly ScriptEntry[];
  env?: Readonly<Record<string, string | undefined>>;
}

type ProviderFactory = (llm: LlmSpec, options: CreateModelOptions) => Model;

/** Provider name -> implementation (docs/formats.md, Agent build). */
const PROVIDERS: Record<LlmSpec['provider'], ProviderFactory> = {
  scripted: (llm, options) => (options.script ? new ScriptedModel(options.script, llm.model) : new UnscriptedModel(llm.model)),
  openai: (llm, options) => new OpenAIChatModel(httpOptions(llm, options)),
  anthropic: (llm, options) => new AnthropicMessagesModel(httpOptions(llm, options)),
};

/** The HTTP providers' options from the build's llm: endpoint, timeout and retries. */
function httpOptions(llm: LlmSpec, options: CreateModelOptions): HttpModelOptions {
  return { model: llm.model, baseUrl: llm.base_url, env: options.env, timeoutMs: llm.timeout_ms, maxRetries: llm.max_retries };
}

/**
 * The scripted provider without a script: a run that never calls the model (a flow of
 * deterministic steps) still runs; the first model call is the error.
 */
class UnscriptedModel implements Model {
  readonly provider = 'scripted';
  constructor(readonly modelId: string) {}

  async generate(): Promise<never> {
    throw new ModelError('scripted', 'provider "scripted" needs a script: give the scenario a model.script (or test-run --script)', 'SCRIPT_MISSING');
  }
}

/** The embedded default when a build names no llm. */
export const DEFAULT_LLM: LlmSpec = { provider: 'scripted', model: 'scripted' };

/** Creates the model a run uses: a script wins over the build's provider. */
export function createModel(llm: LlmSpec | undefined, options: CreateModelOptions = {}): Model {
  const spec = llm ?? DEFAULT_LLM;
  if (options.script) return new ScriptedModel(options.script, spec.provider === 'scripted' ? spec.model : 'scripted');
  return PROVIDERS[spec.provider](spec, options);
}
