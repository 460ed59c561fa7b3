import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { captureContentFlag } from '../../src/engine/content-capture.js';
import { MemoryCheckpointer } from '../../src/engine/checkpoint/memory-checkpointer.js';
import { invoke, type InvokeOptions } from '../../src/engine/invoke.js';
import type { Model } from '../../src/engine/model/model.js';
import { resume } from '../../src/engine/resume.js';
import type { Revision } from '../../src/engine/revision/types.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { installTracing } from '../../src/spans/tracing.js';
import { build } from '../helpers/run-agent.js';

const VARIABLE = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';
const scripted = build({});
const live = build({ llm: { provider: 'openai', model: 'gpt-4.1-mini' } });
const input = { messages: [{ role: 'user' as const, content: 'Where is order 1234?' }] };
const script = [{ text: 'Delivered.' }];

/** A Model of the caller's own that answers at once. */
function ownModel(): Model & { calls: number } {
  return {
    provider: 'mine',
    modelId: 'm1',
    calls: 0,
    async generate() {
      this.calls++;
      return { text: 'Delivered.', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: { input_tokens: 1, output_tokens: 1 } };
    },
  } as Model & { calls: number };
}

/** Whether the run's chat span recorded the messages it sent. */
function captured(spans: SpanRecord[]): boolean {
  const chat = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'chat');
  expect(chat).toBeDefined();
  return chat?.attributes['gen_ai.input.messages'] !== undefined;
}

async function invokeCaptured(revision: Revision, options: Omit<InvokeOptions, 'tracer'>): Promise<boolean> {
  const { tracer, store } = installTracing();
  const turn = await invoke(revision, input, { ...options, tracer });
  expect(turn.stop_reason).toBe('end_turn');
  return captured(store.take(turn.trace_id));
}

describe('invoke captures message content as testRun does (docs/spans.md, Message content capture)', () => {
  it('captures a scripted run by default, and not a live provider or a Model of your own', async () => {
    expect(await invokeCaptured(live, { script, env: {} })).toBe(true);
    expect(await invokeCaptured(scripted, { script, env: {} })).toBe(true);
    expect(await invokeCaptured(live, { model: ownModel(), env: {} })).toBe(false);
  });

  it('follows the variable when it is set, for every run, over the default and over captureContent', async () => {
    expect(await invokeCaptured(live, { model: ownModel(), env: { [VARIABLE]: 'true' } })).toBe(true);
    expect(await invokeCaptured(live, { script, env: { [VARIABLE]: 'false' } })).toBe(false);
    expect(await invokeCaptured(live, { script, captureContent: true, env: { [VARIABLE]: 'false' } })).toBe(false);
  });

  it('takes captureContent in place of the default when the variable is unset', async () => {
    expect(await invokeCaptured(live, { script, captureContent: false, env: {} })).toBe(false);
    expect(await invokeCaptured(live, { model: ownModel(), captureContent: true, env: {} })).toBe(true);
  });

  it('refuses another value of the variable with a ConfigError naming it, before the model is called', async () => {
    const model = ownModel();
    const run = invoke(live, input, { model, env: { [VARIABLE]: 'maybe' } });
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(`${VARIABLE}: expected true or false, got "maybe"`);
    expect(model.calls).toBe(0);
  });

  it('decides the same way for resume', async () => {
    const remove = { name: 'delete_order', description: 'Delete.', permission: 'ask', parameters: { type: 'object' }, returns: { ok: true } };
    const revision = build({ tools: [remove] });
    const steps = [{ tool_calls: [{ name: 'delete_order', args: { id: '1' } }] }, { text: 'Deleted.' }];
    const checkpointer = new MemoryCheckpointer();
    const paused = await invoke(revision, input, { script: steps, checkpointer, env: { [VARIABLE]: 'false' } });
    expect(paused.stop_reason).toBe('paused');
    const [checkpoint] = (await checkpointer.list(paused.trace_id)).slice(-1);
    const { tracer, store } = installTracing();
    const turn = await resume(revision, checkpoint, 'approve', { script: steps, tracer, env: {} });
    expect(turn.stop_reason).toBe('end_turn');
    expect(captured(store.take(turn.trace_id))).toBe(true);
    await expect(resume(revision, checkpoint, 'approve', { script: steps, env: { [VARIABLE]: 'maybe' } })).rejects.toThrow(
      `${VARIABLE}: expected true or false, got "maybe"`,
    );
  });
});

describe('the switch reads as OpenTelemetry reads a boolean variable', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['True', true],
    ['false', false],
    ['FALSE', false],
    ['', undefined],
  ])('%j is %s', (value, expected) => {
    expect(captureContentFlag({ [VARIABLE]: value })).toBe(expected);
  });

  it.each([' true', 'true ', ' ', '1', 'yes', 'on'])('%j is a ConfigError naming the variable and the value', (value) => {
    const read = () => captureContentFlag({ [VARIABLE]: value });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(`${VARIABLE}: expected true or false, got ${JSON.stringify(value)}`);
  });
});
