import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the local server received, body parsed when it is JSON. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, e.g. `/storm/v1/chat/completions`. */
  url: string;
  /** The first path segment: which route answered. */
  route: string;
  headers: IncomingMessage['headers'];
  text: string;
  body: unknown;
  /** 1-based count of requests this route has seen, this one included. */
  count: number;
  at: number;
}

/** Answers one request; may also destroy the socket or never answer. */
export type Route = (request: ReceivedRequest, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 (random port), for model endpoints and http tools. */
export interface LocalServer {
  origin: string;
  /** `origin/<route>/v1`: an OpenAI-compatible base_url served by `routes[route]`. */
  baseUrl(route: string): string;
  requests: ReceivedRequest[];
  /** Requests of one route, in arrival order. */
  of(route: string): ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Starts the server: the first path segment picks the route (`/storm/v1/chat/completions`
 * goes to `routes.storm`); an unknown route is a 404. Hanging connections are destroyed on close.
 */
export async function startLocalServer(routes: Record<string, Route>): Promise<LocalServer> {
  const requests: ReceivedRequest[] = [];
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const route = (req.url ?? '/').split('/')[1] ?? '';
      const count = (counts.get(route) ?? 0) + 1;
      counts.set(route, count);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      const received: ReceivedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', route, headers: req.headers, text, body, count, at: Date.now() };
      requests.push(received);
      const handler = routes[route];
      if (!handler) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${route}` } }));
        return;
      }
      handler(received, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: (route) => `${origin}/${route}/v1`,
    requests,
    of: (route) => requests.filter((request) => request.route === route),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON reply. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** One tool call of a chat completion: `arguments` is the raw string the model sent. */
export interface ChatToolCall {
  name: string;
  arguments: string;
  id?: string;
}

/** A Chat Completions response body with text or tool calls. */
export function chatCompletion(answer: { text?: string; toolCalls?: ChatToolCall[] }): Record<string, unknown> {
  const calls = answer.toolCalls ?? [];
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    model: 'm',
    choices: [
      {
        index: 0,
        finish_reason: calls.length ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content: answer.text ?? null,
          ...(calls.length
            ? {
                tool_calls: calls.map((call, i) => ({
                  id: call.id ?? `call_${i}`,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
  };
}

/**
 * A well-behaved model route: the n-th request (counting only those it answers) gets
 * `turns[n]`; the last turn repeats when the run asks for more.
 */
export function scriptedChat(turns: Array<{ text?: string; toolCalls?: ChatToolCall[] }>): Route {
  let next = 0;
  return (_request, res) => {
    const turn = turns[Math.min(next++, turns.length - 1)];
    sendJson(res, 200, chatCompletion(turn));
  };
}

/** The messages of a Chat Completions request body. */
export function chatMessages(request: ReceivedRequest): Array<Record<string, unknown>> {
  const body = request.body as { messages?: Array<Record<string, unknown>> } | undefined;
  return body?.messages ?? [];
}
