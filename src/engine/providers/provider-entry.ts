import type { Model } from '../model/model.js';
import type { LlmSpec } from '../revision/types.js';
import type { EndpointSpec } from './http-model-options.js';
import type { ScriptEntry } from './scripted.js';

/** What creating a run's model may use besides the build's `llm`. */
export interface CreateModelOptions {
  /** A scenario's `model.script`, already checked (assertScript): when given, the scripted model runs whatever the build says. */
  script?: readonly ScriptEntry[];
  /** Script entries a resumed run already used: the model starts after them (and counts from them). */
  scriptStart?: number;
  env?: Readonly<Record<string, string | undefined>>;
}

/** A tool definition in the provider-neutral shape cassette match keys compare. */
export interface NeutralTool {
  name?: unknown;
  description?: unknown;
  parameters?: unknown;
  [key: string]: unknown;
}

/**
 * One model provider: everything agentcheck knows about it sits in its entry, so the runner
 * (mocks, cassettes, offline runs) never hard-codes a provider's env vars or URLs.
 */
export interface ProviderEntry {
  /** The `agent.llm.provider` name. */
  readonly name: string;
  /**
   * The `gen_ai.provider.name` value of its spans when it differs from `name`: the GenAI
   * conventions name the vendor (`openai`), not the API flavour (`openai-responses`).
   */
  readonly genAiName?: string;
  /** Where an HTTP provider sends requests and reads its key; absent for in-process models. */
  readonly endpoint?: EndpointSpec;
  /** Builds the model for a run. */
  create(llm: LlmSpec, options: CreateModelOptions): Model;
  /**
   * A tool definition of this provider's request body in the neutral `{name, description,
   * parameters}` shape (for cassette match keys), or undefined when it is not this provider's shape.
   */
  matchTool?(tool: Readonly<Record<string, unknown>>): NeutralTool | undefined;
  /**
   * The body keys holding the system prompt and the transcript when they are not `system` and
   * `messages` (Responses: `instructions`, `input`), so cassette match keys name them alike.
   */
  readonly matchFields?: { readonly system: string; readonly messages: string };
}
