import { afterEach, describe, expect, it } from 'vitest';
import { pickTool, score, steps, words, type OfferedTool } from '../../scripts/simulated-model/policy.mjs';
import { startSimulatedModel, type SimulatedModel } from '../../scripts/simulated-model/server.mjs';

const overlapping: OfferedTool[] = [
  { name: 'add_tool', description: 'Tool management.' },
  { name: 'create_tool', description: 'Create or add a new tool for an agent.' },
  { name: 'list_tools', description: 'Tools.' },
];
const sharp: OfferedTool[] = [
  { name: 'add_tool', description: 'Add a new tool to an agent build.' },
  { name: 'list_tools', description: 'List the tools an agent build has.' },
];

describe('simulated model policy', () => {
  it('splits a request into steps and scores name words double', () => {
    expect(steps('Read the build, then add a tool; save it')).toEqual(['Read the build', 'add a tool', 'save it']);
    expect([...words("Add the support-bot's new tools")]).toEqual(['add', 'support', 'bot', 'new', 'tool']);
    const step = words('Add a new web_search tool to support-bot.');
    expect(score(step, overlapping[0])).toBe(4); // add, tool in the name
    expect(score(step, overlapping[1])).toBe(4); // tool in the name; add, new in the description
  });

  it('wanders between overlapping tools across samples and always picks the sharp one', () => {
    const step = 'Add a new web_search tool to support-bot.';
    const picks = (tools: OfferedTool[]) => new Set(Array.from({ length: 20 }, (_, sample) => pickTool(step, tools, { seed: 7, sample })!.name));
    expect(picks(overlapping)).toEqual(new Set(['add_tool', 'create_tool']));
    expect(picks(sharp)).toEqual(new Set(['add_tool']));
    expect(pickTool(step, overlapping, { seed: 7, sample: 3 })).toBe(pickTool(step, overlapping, { seed: 7, sample: 3 }));
  });
});

describe('simulated model server', () => {
  let sim: SimulatedModel | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it('answers Chat Completions: a tool call per step with the sample in its id, then text', async () => {
    sim = await startSimulatedModel({ port: 0 });
    const tools = sharp.map((fn) => ({
      type: 'function',
      function: { ...fn, parameters: { type: 'object', properties: { agent: { type: 'string' }, tool: { type: 'string' } } } },
    }));
    const user = { role: 'user', content: 'Add a new web_search tool to support-bot.' };
    const post = async (messages: unknown[]) => {
      const response = await fetch(`${sim!.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages, tools }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as {
        choices: Array<{
          message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> };
          finish_reason: string;
        }>;
        usage: { prompt_tokens: number };
      };
    };
    const first = await post([user]);
    const call = first.choices[0].message.tool_calls![0];
    expect(call.id).toBe('call_0_0');
    expect(call.function.name).toBe('add_tool');
    expect(JSON.parse(call.function.arguments)).toEqual({ agent: 'support-bot', tool: 'web_search' });
    expect(first.usage.prompt_tokens).toBeGreaterThan(0);
    // The same conversation start again is the next sample (a repeat).
    expect((await post([user])).choices[0].message.tool_calls![0].id).toBe('call_1_0');
    const done = await post([
      user,
      { role: 'assistant', content: null, tool_calls: [{ ...call, type: 'function' }] },
      { role: 'tool', tool_call_id: call.id, content: '{"ok":true}' },
    ]);
    expect(done.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'Done: called add_tool.' } });
  });
});
