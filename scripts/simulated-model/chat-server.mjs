// @ts-check
/**
 * The HTTP side the simulated model and grader share: a Chat Completions endpoint on 127.0.0.1
 * that answers every POST .../chat/completions with `answer(body)`.
 */
import { createServer } from 'node:http';

/**
 * Starts the server; resolves with its base URL (`http://127.0.0.1:PORT/v1`) and a close function.
 * @param {(body: any) => unknown} answer
 * @param {number} port
 */
export async function serveChatCompletions(answer, port) {
  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, { error: { message: 'body is not JSON' } });
      }
      send(res, 200, answer(body));
    });
  });
  await new Promise((ready) => server.listen(port, '127.0.0.1', () => ready(undefined)));
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${bound}/v1`,
    /** @returns {Promise<void>} */
    close: () => new Promise((done) => server.close(() => done(undefined))),
  };
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} json */
function send(res, status, json) {
  const text = JSON.stringify(json);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
