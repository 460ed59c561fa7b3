import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** A real Streamable HTTP MCP server on 127.0.0.1 (the SDK's McpServer and StreamableHTTPServerTransport). */
export interface HttpMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** Sessions initialized so far. */
  sessionsStarted(): number;
  /** Sessions still open (a client's DELETE ends one). */
  sessionsOpen(): number;
  close(): Promise<void>;
}

/** Starts the server; requests without `Authorization: Bearer <token>` get 401 when a token is given. */
export async function startHttpMcpServer(token?: string): Promise<HttpMcpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let started = 0;
  const http: Server = createServer((req, res) => {
    void (async () => {
      if (token !== undefined && req.headers.authorization !== `Bearer ${token}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
        return;
      }
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        if (typeof id === 'string') {
          res.writeHead(404).end();
          return;
        }
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sessionId) => {
            sessions.set(sessionId, created);
            started++;
          },
        });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        await toolServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessionsStarted: () => started,
    sessionsOpen: () => sessions.size,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function toolServer(): McpServer {
  const server = new McpServer({ name: 'web-stub', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echo the text back.',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'the web stub refuses' }],
    isError: true,
  }));
  return server;
}
