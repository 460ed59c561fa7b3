import { describe, expect, it, vi } from 'vitest';
import { McpToolListing } from '../../../src/engine/mcp/mcp-tool-listing.js';
import { runScripted, toolSpans } from '../../helpers/run-agent.js';
import { LISTING_SERVER, mcpBuild, nodeArgv } from './mcp-helpers.js';

const WEIRD = { name: 'weird', description: 'bad schema', inputSchema: { type: 'object', properties: { x: { type: 'nonsense' } }, required: 5 } };
const OK = { name: 'ok', description: 'fine', inputSchema: { type: 'object', properties: {} } };
const BARE = { name: 'bare', description: 'no schema' };

/** A build with one server `srv` listing `tools` as given; `offered` is its allow list. */
function listingBuild(tools: unknown[], offered?: string[]) {
  return mcpBuild([{ name: 'srv', command: nodeArgv(LISTING_SERVER, JSON.stringify(tools)), ...(offered ? { tools: offered } : {}) }]);
}

const CALL_OK = [{ tool_calls: [{ name: 'mcp__srv__ok', args: {} }] }, { text: 'done' }];

describe('a tools/list whose entries the SDK refuses', () => {
  it('offers the allow-listed tools when the malformed ones are left out', async () => {
    for (const bad of [WEIRD, BARE, { description: 'no name', inputSchema: { type: 'object' } }]) {
      const { turn, spans } = await runScripted(listingBuild([bad, OK], ['ok']), CALL_OK);
      expect(turn.error).toBeUndefined();
      expect(turn.stop_reason).toBe('end_turn');
      expect(toolSpans(spans)[0].attributes['agentcheck.tool.outcome']).toBe('ok');
    }
  });

  it('ends the run naming the server, the tool and what is wrong when the build offers a malformed tool', async () => {
    const { turn } = await runScripted(listingBuild([WEIRD, OK]), [{ text: 'never asked' }]);
    expect(turn.stop_reason).toBe('error');
    expect(turn.error?.type).toBe('MCP_START_FAILED');
    expect(turn.error?.message).toBe(
      'MCP server "srv" could not start: its tool "weird" is not a valid MCP tool (at inputSchema.required, expected an array, got number 5); list the tools to offer with agent.mcps[name=srv].tools',
    );
  });

  it('says each malformed tool an allow list names, on one line', async () => {
    const { turn } = await runScripted(listingBuild([WEIRD, BARE, OK], ['weird', 'bare', 'ok']), [{ text: 'never asked' }]);
    expect(turn.error?.type).toBe('MCP_START_FAILED');
    expect(turn.error?.message).toBe(
      'MCP server "srv" could not start: its tool "weird" is not a valid MCP tool (at inputSchema.required, expected an array, got number 5); its tool "bare" is not a valid MCP tool (at inputSchema, missing: expected an object); leave them out of agent.mcps[name=srv].tools',
    );
  });

  it('names a nameless entry by its place in the listing when the build offers every tool', async () => {
    const { turn } = await runScripted(listingBuild([OK, { inputSchema: { type: 'object' } }]), [{ text: 'never asked' }]);
    expect(turn.error?.message).toBe(
      'MCP server "srv" could not start: its tools/list entry [1] (no name) is not a valid MCP tool (at name, missing: expected a string); list the tools to offer with agent.mcps[name=srv].tools',
    );
  });

  it('leaves out a tool whose outputSchema cannot be compiled, and refuses to offer it', async () => {
    const broken = { name: 'broken', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'nonsense' } } } };
    expect((await runScripted(listingBuild([broken, OK], ['ok']), CALL_OK)).turn.stop_reason).toBe('end_turn');
    const { turn } = await runScripted(listingBuild([broken, OK], ['broken']), [{ text: 'never asked' }]);
    expect(turn.error?.type).toBe('MCP_START_FAILED');
    expect(turn.error?.message).toMatch(
      /^MCP server "srv" could not start: its tool "broken" is not a valid MCP tool \(at outputSchema, a JSON Schema that cannot be compiled: .+\); leave it out/,
    );
  });

  it("still holds a tool's result to its outputSchema", async () => {
    const output = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const tools = ['good', 'no_structure', 'bad_structure'].map((name) => ({ name, inputSchema: { type: 'object' }, outputSchema: output }));
    const calls = tools.map((tool) => ({ tool_calls: [{ name: `mcp__srv__${tool.name}`, args: {} }] }));
    const { spans } = await runScripted(listingBuild(tools), [...calls, { text: 'done' }]);
    const [good, none, bad] = toolSpans(spans);
    expect(good.attributes['agentcheck.tool.outcome']).toBe('ok');
    expect(none.attributes['error.type']).toBe('mcp_call_failed');
    expect(String(none.attributes['gen_ai.tool.call.result'])).toContain('has an output schema but did not return structured content');
    expect(bad.attributes['error.type']).toBe('mcp_call_failed');
    expect(String(bad.attributes['gen_ai.tool.call.result'])).toContain("Structured content does not match the tool's output schema");
  });
});

describe("a tool's output schema with a format no standard names", () => {
  it('is checked without a warning on stderr (the format is ignored, as in input schemas), and still checks the rest', () => {
    const warned = vi.spyOn(console, 'warn');
    const logged = vi.spyOn(console, 'log');
    try {
      const listing = McpToolListing.of([
        {
          name: 'tagged',
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', properties: { tag: { type: 'string', format: 'x-custom' } }, required: ['tag'] },
        },
      ]);
      expect(listing.malformed).toEqual([]);
      expect(() => listing.checkResult('tagged', { content: [], structuredContent: { tag: 'anything' } })).not.toThrow();
      expect(() => listing.checkResult('tagged', { content: [], structuredContent: { tag: 5 } })).toThrow(/output schema/);
      expect([...warned.mock.calls, ...logged.mock.calls]).toEqual([]);
    } finally {
      warned.mockRestore();
      logged.mockRestore();
    }
  });
});
