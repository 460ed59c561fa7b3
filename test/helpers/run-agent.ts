import { invoke, type InvokeOptions } from '../../src/engine/invoke.js';
import type { Message } from '../../src/engine/model/message.js';
import { ScriptedModel, type ScriptEntry } from '../../src/engine/providers/scripted.js';
import { revisionFromValue } from '../../src/engine/revision/load-build.js';
import type { Revision } from '../../src/engine/revision/types.js';
import type { Turn } from '../../src/engine/turn.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { installTracing } from '../../src/spans/tracing.js';

/**
 * The script of a test whose model is never called (a flow of deterministic steps, an external
 * agent that fails first): a script needs an entry, and a call nobody expects fails the turn.
 */
export const NO_MODEL_CALL: ScriptEntry[] = [{ error: { message: 'this test expects no model call' } }];

/** A minimal valid build with the given agent fields. */
export function build(agent: Record<string, unknown>, extra: Record<string, unknown> = {}): Revision {
  return revisionFromValue({ id: 'test-agent', agent: { name: 'Test agent', ...agent }, ...extra });
}

/** Invokes a revision with a scripted model and returns the turn, its spans and the model's requests. */
export async function runScripted(
  revision: Revision,
  script: ScriptEntry[],
  options: Omit<InvokeOptions, 'model' | 'tracer'> & { messages?: Message[]; context?: Record<string, unknown> } = {},
): Promise<{ turn: Turn; spans: SpanRecord[]; model: ScriptedModel }> {
  const { tracer, store } = installTracing();
  const model = new ScriptedModel(script);
  const { messages, context, ...rest } = options;
  const turn = await invoke(revision, { messages: messages ?? [{ role: 'user', content: 'hello' }], context }, { ...rest, model, tracer });
  return { turn, spans: store.take(turn.trace_id), model };
}

/** The spans named `execute_tool ...`, in start order. */
export function toolSpans(spans: SpanRecord[]): SpanRecord[] {
  return spans.filter((span) => span.name.startsWith('execute_tool '));
}
