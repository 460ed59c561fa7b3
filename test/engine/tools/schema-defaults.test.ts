import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withSchemaDefaults } from '../../../src/engine/tools/schema-defaults.js';
import { buildEvidence } from '../../../src/verdicts/evidence.js';
import { runChecks } from '../../../src/verdicts/run-checks.js';
import { build, runScripted, toolSpans } from '../../helpers/run-agent.js';

const seen: string[] = [];
const server = setupServer(
  http.get('https://gmail.test/messages', ({ request }) => {
    seen.push(request.url);
    return HttpResponse.json({ messages: [] });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen.length = 0;
});
afterAll(() => server.close());

const searchEmails = {
  name: 'search_emails',
  description: 'Search the mailbox.',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string' }, max_results: { type: 'integer', default: 10, minimum: 1 } },
    required: ['query'],
  },
  http: { url: 'https://gmail.test/messages?q={{ args.query }}&maxResults={{ args.max_results }}' },
};

describe('JSON Schema defaults fill omitted arguments', () => {
  it('an http tool called by the model gets max_results 10 in its URL; the span keeps what the model sent', async () => {
    const { turn, spans } = await runScripted(build({ tools: [searchEmails] }), [
      { tool_calls: [{ name: 'search_emails', args: { query: 'invoice' } }] },
      { text: 'done' },
    ]);
    expect(turn.messages.find((m) => m.role === 'tool')).toMatchObject({ is_error: false });
    expect(seen).toEqual(['https://gmail.test/messages?q=invoice&maxResults=10']);
    expect(JSON.parse(String(toolSpans(spans)[0].attributes['gen_ai.tool.call.arguments']))).toEqual({ query: 'invoice' });
  });

  it('checks match the arguments as given: a defaulted argument counts as omitted, so $one_of with "" accepts both', async () => {
    const { spans } = await runScripted(build({ tools: [searchEmails] }), [
      { tool_calls: [{ name: 'search_emails', args: { query: 'invoice' } }] },
      { text: 'done' },
    ]);
    const [literal, optional] = runChecks(
      [
        { tool_called: { tool: 'search_emails', args: { max_results: 10 } } },
        { tool_called: { tool: 'search_emails', args: { max_results: { $one_of: [10, ''] } } } },
      ],
      buildEvidence({ spans }),
    );
    expect(literal).toMatchObject({ status: 'fail', reason: expect.stringContaining('argument "max_results": missing (expected 10)') });
    expect(optional.status).toBe('pass');
  });

  it('a chain step that leaves the argument out gets the default too', async () => {
    const chain = {
      name: 'inbox',
      description: 'Inbox.',
      parameters: { type: 'object' },
      chain: { steps: [{ tool: 'search_emails', inputs: { query: 'receipts' } }] },
    };
    await runScripted(build({ tools: [searchEmails, chain] }), [{ tool_calls: [{ name: 'inbox', args: {} }] }, { text: 'done' }]);
    expect(seen).toEqual(['https://gmail.test/messages?q=receipts&maxResults=10']);
  });

  it('fills nested object defaults, never overrides a given value and never changes its input', () => {
    const schema = {
      type: 'object',
      properties: {
        limit: { type: 'integer', default: 5 },
        options: { type: 'object', properties: { sort: { type: 'string', default: 'date' }, order: { type: 'string' } } },
      },
    };
    const args = { limit: 2, options: { order: 'asc' } };
    expect(withSchemaDefaults(schema, args)).toEqual({ limit: 2, options: { order: 'asc', sort: 'date' } });
    expect(args).toEqual({ limit: 2, options: { order: 'asc' } });
    expect(withSchemaDefaults(schema, {})).toEqual({ limit: 5 });
  });
});
