import { memoryLocator } from '../../config/assert-format.js';
import { collectConfigErrors, ConfigError, ModelError, throwConfigErrors } from '../../config/errors.js';
import { describeValue } from '../../config/describe-value.js';
import type { Model, ModelRequest, ModelResponse, Usage } from '../model/model.js';
import type { ProviderEntry } from './provider-entry.js';
import { assertScript } from './script-schema.js';

/** One scripted model response (a scenario's `model.script` entry). */
export interface ScriptEntry {
  text?: string;
  /** `args` missing means `{}`; any given value (null too) is passed on as the model's arguments. */
  tool_calls?: Array<{ name: string; args?: unknown; id?: string }>;
  usage?: Partial<Usage>;
  /** Simulated latency before answering. */
  delay_ms?: number;
  /** Makes this model call fail, as a provider error would. */
  error?: { message: string; status?: number };
}

/** Set only while scriptedModelOf constructs: its caller checked the script where it was given. */
let scriptChecked = false;

/**
 * The embedded default model: answers each call with the next script entry, offline and
 * deterministic. Asking for more turns than the script has is an error, never a silent end.
 * Requests are recorded so tests can assert what the model was sent.
 */
export class ScriptedModel implements Model {
  readonly provider = 'scripted';
  readonly modelId: string;
  readonly requests: ModelRequest[] = [];
  private readonly script: readonly ScriptEntry[];
  private position = 0;
  private callCounter = 0;
  /** Call ids the script gives explicitly, which generated ids skip. */
  private readonly givenIds: Set<string>;

  /**
   * `start`: entries a resumed run already used; messages and response ids count from the script's start.
   * A script the other entry points refuse is refused here too, with their words (docs/formats.md, Scenario).
   */
  constructor(script: readonly ScriptEntry[], modelId = 'scripted', start = 0) {
    // The list and each entry alike by the script rules, so a non-object entry is named at its index.
    if (!scriptChecked) {
      const locate = memoryLocator('ScriptedModel');
      const problems: ConfigError[] = [];
      collectConfigErrors(problems, () => assertScript(script, (path, expected) => locate(['script', ...path], expected)));
      // It is the response model spans and resolved.model record: a name, never an object or nothing.
      if (typeof modelId !== 'string' || modelId === '') {
        problems.push(locate(['modelId'], `expected a model name (a non-empty string), got ${describeValue(modelId)}`));
      }
      throwConfigErrors(problems);
    }
    this.script = script;
    this.position = start;
    this.modelId = modelId;
    this.givenIds = new Set(script.flatMap((entry) => (entry.tool_calls ?? []).flatMap((call) => (call.id === undefined ? [] : [call.id]))));
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    // As a provider's request would: an aborted run (its time limit) gets no answer.
    if (request.signal?.aborted) throw new ModelError(this.provider, 'aborted', 'MODEL_ABORTED');
    this.requests.push(request);
    const entry = this.script[this.position];
    if (!entry) {
      throw new ModelError(
        this.provider,
        `script exhausted: the script has ${this.script.length} entr${this.script.length === 1 ? 'y' : 'ies'} but the model was called a ${ordinal(this.position + 1)} time`,
        'SCRIPT_EXHAUSTED',
      );
    }
    this.position++;
    // A resumed run is a new model over the same transcript: ids the run already gave stay taken,
    // so one transcript never holds the same tool_call_id twice.
    for (const message of request.messages) {
      if (message.role === 'assistant') for (const call of message.tool_calls ?? []) this.givenIds.add(call.tool_call_id);
    }
    if (entry.delay_ms) await delay(entry.delay_ms, request.signal);
    if (entry.error) throw new ModelError(this.provider, entry.error.message, 'MODEL_REQUEST_REJECTED', { status: entry.error.status });
    const toolCalls = (entry.tool_calls ?? []).map((call) => ({
      id: call.id ?? this.nextCallId(),
      name: call.name,
      // Only missing args mean "no arguments": a given value, null included, reaches argument
      // validation as written, as a real model's would.
      args: call.args === undefined ? {} : call.args,
    }));
    const text = entry.text ?? '';
    return {
      text,
      toolCalls,
      finishReason: toolCalls.length ? { unified: 'tool_calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
      usage: {
        input_tokens: entry.usage?.input_tokens ?? estimateInputTokens(request),
        output_tokens: entry.usage?.output_tokens ?? Math.ceil((text.length + JSON.stringify(toolCalls).length) / 4),
      },
      responseModel: this.modelId,
      // Deterministic, so replays and reports compare equal; unique within a run.
      responseId: `scripted-${this.position}`,
    };
  }

  /** The next generated call id, never one the script gives a call explicitly. */
  private nextCallId(): string {
    let id: string;
    do id = `call_${++this.callCounter}`;
    while (this.givenIds.has(id));
    return id;
  }
}

/**
 * A ScriptedModel over a script its caller has already checked (a scenario file, a test_run
 * request, invoke's options), so a run does not check it twice. Internal: the library exports
 * only the checking constructor.
 */
export function scriptedModelOf(script: readonly ScriptEntry[], modelId: string, start?: number): ScriptedModel {
  scriptChecked = true;
  try {
    return new ScriptedModel(script, modelId, start);
  } finally {
    scriptChecked = false;
  }
}

/** A rough, deterministic token estimate (4 characters a token) so budgets work offline. */
function estimateInputTokens(request: ModelRequest): number {
  let chars = request.system.length;
  for (const message of request.messages) chars += message.content.length;
  return Math.ceil(chars / 4);
}

function ordinal(n: number): string {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new ModelError('scripted', 'aborted', 'MODEL_ABORTED'));
      },
      { once: true },
    );
  });
}

/** What the scripted provider says without a script, naming where each kind of caller gives one (docs/formats.md). */
export const SCRIPT_MISSING_MESSAGE =
  'provider "scripted" needs a script (one entry per model call): give it as a scenario\'s model.script, test-run --script FILE, ' +
  "or the script field of an MCP test_run request or of the library's testRun and invoke";

/**
 * The scripted provider without a script: a run that never calls the model (a flow of
 * deterministic steps) still runs; the first model call is the error.
 */
class UnscriptedModel implements Model {
  readonly provider = 'scripted';
  constructor(readonly modelId: string) {}

  async generate(): Promise<never> {
    // Said for every caller (scenario, CLI, MCP, library): each gives the script in its own field.
    throw new ModelError('scripted', SCRIPT_MISSING_MESSAGE, 'SCRIPT_MISSING');
  }
}

/** The `scripted` registry entry: in-process, offline, no endpoint and no key. */
export const scriptedProvider: ProviderEntry = {
  name: 'scripted',
  create: (llm, options) => (options.script ? scriptedModelOf(options.script, llm.model, options.scriptStart) : new UnscriptedModel(llm.model)),
};
