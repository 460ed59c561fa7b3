#!/usr/bin/env node
// An agent written with the Vercel AI SDK (ai@6, @ai-sdk/openai@3), run by agentcheck as an
// external command (docs/external-agents.md). It reads {"messages": [...], "context": {...}} on
// stdin, answers with generateText and its tool loop, prints the final answer on stdout, and
// exports the SDK's own spans (telemetry on) over OTLP/HTTP.
//
// agentcheck points it at the run's model bridge (OPENAI_BASE_URL, OPENAI_API_KEY) and span
// receiver (OTEL_EXPORTER_OTLP_ENDPOINT, TRACEPARENT); nothing here knows it is being tested.
import { AsyncLocalStorage } from 'node:async_hooks';
import { readdir, readFile } from 'node:fs/promises';
import { resolve, relative, isAbsolute } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { ROOT_CONTEXT, context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';

const input = JSON.parse(await readStdin());

// The bridge speaks Chat Completions; @ai-sdk/openai v2+ defaults to the Responses API, so ask
// for the chat model explicitly.
const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY });
const model = openai.chat(process.env.AGENT_MODEL ?? 'gpt-4o-mini');

const tracing = startTracing();

const workspace = process.cwd();
const tools = {
  list_files: tool({
    description: 'List the files in a folder of the workspace.',
    inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string', description: 'Folder, relative to the workspace; default "."' } } }),
    execute: async ({ path = '.' }) =>
      (await readdir(inWorkspace(path), { withFileTypes: true })).map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)),
  }),
  read_file: tool({
    description: 'Read a text file of the workspace.',
    inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
    // A missing file throws: the SDK records the error on its ai.toolCall span and tells the model.
    execute: async ({ path }) => ({ path, content: await readFile(inWorkspace(path), 'utf8') }),
  }),
};

const run = () =>
  generateText({
    model,
    system: 'You answer questions about the files in the workspace. Use the tools to look.',
    messages: input.messages.filter((m) => ['system', 'user', 'assistant'].includes(m.role)).map((m) => ({ role: m.role, content: String(m.content ?? '') })),
    tools,
    // The SDK's multi-step tool loop: call tools and feed their results back, up to 5 model calls.
    stopWhen: stepCountIs(5),
    experimental_telemetry: { isEnabled: true, functionId: 'workspace-agent', tracer: tracing?.tracer },
  });

let exitCode = 0;
try {
  // Under TRACEPARENT, the SDK's spans join the caller's trace.
  const result = await context.with(tracing?.parent ?? context.active(), run);
  process.stdout.write(result.text);
} catch (error) {
  process.stderr.write(`agent failed: ${error instanceof Error ? error.message : String(error)}\n`);
  exitCode = 1;
}
// Export what is still queued before exiting, so every span reaches the receiver.
await tracing?.provider.shutdown();
process.exitCode = exitCode;

function inWorkspace(path) {
  const full = resolve(workspace, path);
  const rel = relative(workspace, full);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${path} is outside the workspace`);
  return full;
}

function readStdin() {
  return new Promise((done, fail) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (text += chunk));
    process.stdin.on('end', () => done(text));
    process.stdin.on('error', fail);
  });
}

/** OpenTelemetry set-up: an OTLP/HTTP exporter (it reads OTEL_EXPORTER_OTLP_*) and the TRACEPARENT parent. */
function startTracing() {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT && !process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  // The SDK nests its spans with startActiveSpan, which needs a context manager; a real app
  // would use @opentelemetry/sdk-node, which installs one like this.
  const storage = new AsyncLocalStorage();
  context.setGlobalContextManager({
    active: () => storage.getStore() ?? ROOT_CONTEXT,
    with: (ctx, fn, thisArg, ...args) => storage.run(ctx, () => fn.call(thisArg, ...args)),
    bind: (ctx, target) => (typeof target === 'function' ? (...args) => storage.run(ctx, () => target(...args)) : target),
    enable() {
      return this;
    },
    disable() {
      storage.disable();
      return this;
    },
  });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'ai-sdk-workspace-agent' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  return { provider, tracer: provider.getTracer('ai-sdk-workspace-agent'), parent: parentFromTraceparent(process.env.TRACEPARENT) };
}

/** W3C `traceparent`: 00-<trace id>-<parent span id>-<flags>. */
function parentFromTraceparent(header) {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(header?.trim() ?? '');
  if (!match) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1], spanId: match[2], traceFlags: parseInt(match[3], 16), isRemote: true });
}
