import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server saw: one entry per request, live traffic only. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP server on 127.0.0.1 playing an OpenAI-compatible API plus a small shop API. */
export interface FakeProvider {
  origin: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A real socket, not an msw handler: the harness's process-wide interceptor sends recorded
 * requests out with bypass(), so only a real server proves they reached the network.
 * The model is deterministic from the conversation: look the order up, refund it, say so.
 * Response ids come from a counter, so two recordings differ and a replay must reproduce one.
 */
export async function startFakeProvider(): Promise<FakeProvider> {
  const seen: SeenRequest[] = [];
  let counter = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      counter++;
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'set-cookie': 'session=cookie-secret-value-42' });
        res.end(JSON.stringify(value));
      };
      if (req.url?.startsWith('/v1/chat/completions')) return send(200, completion(JSON.parse(body), counter));
      if (req.url?.startsWith('/shop/orders/')) {
        const id = decodeURIComponent(req.url.split('/')[3].split('?')[0]);
        // Echoes the caller's key, as a careless API might: the cassette must not keep it.
        return send(200, { id, status: 'delivered', damaged: true, echoed_key: req.headers['x-api-key'] ?? null });
      }
      return send(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function completion(request: { model: string; messages: Array<{ role: string }> }, n: number): unknown {
  const toolResults = request.messages.filter((message) => message.role === 'tool').length;
  const message =
    toolResults === 0
      ? toolCall(`call_${n}`, 'lookup_order', { order_id: '1234' })
      : toolResults === 1
        ? toolCall(`call_${n}`, 'create_refund', { order_id: '1234', reason: 'damaged' })
        : { role: 'assistant', content: 'Refund created.' };
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: 1741569952 + n,
    model: `${request.model}-2025`,
    choices: [{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 50 + n, completion_tokens: 10, total_tokens: 60 + n },
  };
}

function toolCall(id: string, name: string, args: unknown) {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
}
