import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, Tracer } from '@opentelemetry/api';
import { ModelError } from '../../config/errors.js';
import { chatWithSpan } from '../loop/chat-span.js';
import type { ContentCapture } from '../loop/genai-messages.js';
import { describeError } from '../loop/agent-loop.js';
import type { Model, ModelResponse, Usage } from '../model/model.js';
import { addUsage, emptyUsage } from '../model/usage.js';
import { anthropicError, anthropicMessage, anthropicStream, parseAnthropicRequest } from './anthropic-wire.js';
import { openAiCompletion, openAiError, openAiStream, parseOpenAiRequest } from './openai-wire.js';
import { ToolLedger } from './tool-ledger.js';
import { WireError, type WireRequest } from './wire-request.js';

/** The API key an external agent is given: the bridge needs none, SDKs insist on one. */
export const BRIDGE_API_KEY = 'agentcheck-model-bridge';

/** Largest request body the bridge reads. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;

/** What a bridge answers from and where its spans go. */
export interface BridgeOptions {
  model: Model;
  tracer: Tracer;
  /** The run's root span context: chat and execute_tool spans hang under it. */
  parent: Context;
  /** Model calls allowed; the next one is refused (stop_reason max_turns). */
  maxTurns: number;
  /** The build's llm parameters, sent on every call (the client's own sampling settings are not). */
  parameters: Record<string, unknown>;
  contentCapture?: ContentCapture;
  signal?: AbortSignal;
}

interface Api {
  parse(body: unknown): WireRequest;
  answer(response: ModelResponse, request: WireRequest, id: string): object;
  stream(response: ModelResponse, request: WireRequest, id: string): string[];
  error(message: string, status: number): object;
}

const created = () => Math.floor(Date.now() / 1000);

const OPENAI: Api = {
  parse: parseOpenAiRequest,
  answer: (response, request, id) => openAiCompletion(response, request, `chatcmpl-${id}`, created()),
  stream: (response, request, id) => openAiStream(response, request, `chatcmpl-${id}`, created()),
  error: openAiError,
};

const ANTHROPIC: Api = {
  parse: parseAnthropicRequest,
  answer: (response, request, id) => anthropicMessage(response, request, `msg_${id}`),
  stream: (response, request, id) => anthropicStream(response, request, `msg_${id}`),
  error: anthropicError,
};

/** Paths the bridge answers; the `/v1`-less forms serve clients whose base URL lacks it. */
const ROUTES: Record<string, Api> = {
  '/v1/chat/completions': OPENAI,
  '/chat/completions': OPENAI,
  '/v1/messages': ANTHROPIC,
  '/messages': ANTHROPIC,
};

/**
 * The per-run model bridge (docs/external-agents.md): an OpenAI Chat Completions and Anthropic
 * Messages endpoint on 127.0.0.1 that answers an external agent's model calls from the run's
 * Model. Every call is a `chat` span; every tool call the model asks for an `execute_tool` span.
 */
export class ModelBridge {
  readonly ledger: ToolLedger;
  readonly usage: Usage = emptyUsage();
  /** Model calls answered or attempted. */
  turns = 0;
  /** Whether a call was refused because max_turns was reached. */
  maxTurnsReached = false;
  /** The last model failure, for the turn's error when the agent gives up on it. */
  modelError?: { type: string; message: string };

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: BridgeOptions,
  ) {
    this.ledger = new ToolLedger(options.tracer, options.parent);
  }

  /** Starts a bridge on a random port of 127.0.0.1. */
  static async start(options: BridgeOptions): Promise<ModelBridge> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const bridge = new ModelBridge(server, `http://127.0.0.1:${port}`, options);
    // Attached in the same tick as listening completed: no request can arrive before it.
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void bridge.handle(req, res));
    return bridge;
  }

  /** Stops the bridge (open connections too) and ends the calls never answered; returns those. */
  async close(): Promise<string[]> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    return this.ledger.closeUnanswered();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.url).pathname;
    const api = ROUTES[path.replace(/\/+$/, '')];
    if (!api || req.method !== 'POST') {
      const shape = path.includes('messages') && !path.includes('chat') ? ANTHROPIC : OPENAI;
      // Its body is not read: the connection is closed after the answer, not left half-read.
      send(res, 404, shape.error(`the model bridge answers POST /v1/chat/completions and POST /v1/messages, not ${req.method} ${path}`, 404), CLOSE);
      return;
    }
    let request: WireRequest;
    try {
      request = api.parse(JSON.parse(await readBody(req)));
    } catch (error) {
      const status = error instanceof WireError ? error.status : 400;
      const message = error instanceof SyntaxError ? `the request body is not JSON: ${error.message}` : (error as Error).message;
      // A body too large was left unread: the client must not send its next request on this connection.
      send(res, status, api.error(message, status), status === 413 ? CLOSE : undefined);
      return;
    }
    this.ledger.settle(request.messages);
    if (this.turns >= this.options.maxTurns) {
      this.maxTurnsReached = true;
      send(res, 400, api.error(`max_turns reached: the run allows ${this.options.maxTurns} model calls`, 400));
      return;
    }
    if (this.options.signal?.aborted) {
      // Past the run's limit (or an interrupt): an agent that goes on asking gets no more answers.
      send(res, 400, api.error('the run was aborted (its time limit or an interrupt): no more model calls', 400));
      return;
    }
    const turn = this.turns++;
    let response: ModelResponse;
    try {
      response = await chatWithSpan(
        this.options.model,
        {
          system: request.system,
          messages: request.messages,
          tools: request.tools,
          parameters: this.options.parameters,
          signal: this.options.signal,
        },
        { tracer: this.options.tracer, parent: this.options.parent, turn, contentCapture: this.options.contentCapture },
      );
    } catch (error) {
      this.modelError = describeError(error);
      // Without a status of its own the failure is final (the providers retried already): a 5xx would make the SDK retry.
      const status = error instanceof ModelError && error.status !== undefined ? error.status : 400;
      send(res, status, api.error(this.modelError.message, status));
      return;
    }
    addUsage(this.usage, response.usage);
    this.ledger.record(response, turn);
    const id = randomUUID().replaceAll('-', '');
    if (!request.stream) {
      send(res, 200, api.answer(response, request, id));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const frame of api.stream(response, request, id)) res.write(frame);
    res.end();
  }
}

/** Headers of an answer given before the request's body was read to its end. */
const CLOSE = { connection: 'close' };

function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new WireError(`the request body is larger than ${MAX_BODY_BYTES} bytes`, 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
