import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { createChainTool } from '../../../src/engine/chain/chain-tool.js';
import { createPlanTool } from '../../../src/engine/plan/plan-tool.js';
import { loadAgentBuild, revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { createPromptSecurity } from '../../../src/engine/security/prompt-security.js';
import type { Tool } from '../../../src/engine/tools/tool.js';
import { ToolCaller } from '../../../src/engine/tools/tool-caller.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configErrorOf } from '../../helpers/config-error.js';

const anyArgs = { type: 'object' };
/** The documented nesting limit (MAX_CALL_DEPTH in src/engine/tools/tool-caller.ts). */
const MAX_CALL_DEPTH = 16;

function loadError(tools: unknown[], flow?: unknown): ConfigError {
  return configErrorOf(() => revisionFromValue({ id: 'rec', agent: { name: 'Rec', tools }, ...(flow ? { flow } : {}) }));
}

/** A ToolCaller over `tools` with the defaults these tests share. */
function callerOf(tools: Map<string, Tool>, tracer = installTracing().tracer): ToolCaller {
  return new ToolCaller({ tools, agent: { name: 'a' }, security: createPromptSecurity(), tracer, workspace: FolderWorkspace.temp(), env: {} });
}

describe('composite tools that call themselves are refused at load', () => {
  it('a chain step calling its own chain, located in the file and naming the cycle', () => {
    const dir = tempDir({
      'agent.yaml': [
        'id: rec',
        'agent:',
        '  name: Rec',
        '  tools:',
        '    - {name: a, returns: 1}',
        '    - {name: b, returns: 2}',
        '    - name: loop',
        '      chain:',
        '        steps:',
        '          - tool: loop',
        '',
      ].join('\n'),
    });
    const config = configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml')));
    expect(config.path).toBe('agent.tools[2].chain.steps[0].tool');
    expect(config.line).toBe(10);
    expect(config.message).toContain('agent.tools[2].chain.steps[0].tool: "loop" calls itself through loop -> loop');
  });

  it('a plan calling its own plan, also from inside for_each and if_else', () => {
    const error = loadError([
      {
        name: 'walk',
        parameters: anyArgs,
        plan: {
          steps: [
            {
              tools: [
                { name: 'echo', arguments: { text: 'x' } },
                {
                  name: 'for_each',
                  items: '{{ children }}',
                  each_item: {
                    item_name: 'c',
                    tools: [{ name: 'if_else', condition: '{{ c }}', if: { tools: [{ name: 'walk', arguments: { children: '{{ c }}' } }] } }],
                  },
                },
              ],
            },
          ],
        },
      },
    ]);
    expect(error.path).toBe('agent.tools[0].plan.steps[0].tools[1].each_item.tools[0].if.tools[0].name');
    expect(error.expected).toContain('"walk" calls itself through walk -> walk');
  });

  it('two composites calling each other (chain -> plan -> chain)', () => {
    const error = loadError([
      { name: 'ping', chain: { steps: [{ tool: 'echo', inputs: { text: 'hi' } }, { tool: 'pong' }] } },
      { name: 'pong', plan: { steps: [{ tools: [{ name: 'ping' }] }] } },
    ]);
    expect(error.path).toBe('agent.tools[0].chain.steps[1].tool');
    expect(error.expected).toContain('"ping" calls itself through ping -> pong -> ping');
  });

  it('a longer cycle is named whole, and a flow plan component that reaches it does not hide it', () => {
    const error = loadError(
      [
        { name: 'entry', chain: { steps: [{ tool: 'one' }] } },
        { name: 'one', chain: { steps: [{ tool: 'two' }] } },
        { name: 'two', chain: { steps: [{ tool: 'three' }] } },
        { name: 'three', chain: { steps: [{ tool: 'echo', inputs: { text: 'x' } }, { tool: 'one' }] } },
      ],
      {
        entry_point: 'p',
        components: [{ name: 'p', type: 'plan', plan: { steps: [{ tools: [{ name: 'entry' }] }] } }],
        routers: [{ from: 'p', to: 'end' }],
      },
    );
    expect(error.path).toBe('agent.tools[1].chain.steps[0].tool');
    expect(error.expected).toContain('"one" calls itself through one -> two -> three -> one');
  });

  it('every distinct cycle at once, each once however many tools it passes through, at its own tool', () => {
    let caught: unknown;
    try {
      revisionFromValue({
        id: 'rec',
        agent: {
          name: 'Rec',
          tools: [
            { name: 'pa', plan: { steps: [{ tools: [{ name: 'pb' }, { name: 'pb' }] }] } },
            { name: 'pb', plan: { steps: [{ tools: [{ name: 'pa' }] }] } },
            { name: 'self', chain: { steps: [{ tool: 'self' }] } },
            { name: 'self2', chain: { steps: [{ tool: 'echo', inputs: { text: 'x' } }, { tool: 'self2' }] } },
          ],
        },
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigErrors);
    const wording = '; a chain or plan must not call itself, directly or through other tools';
    expect((caught as ConfigErrors).errors.map((error) => [error.path, error.expected])).toEqual([
      ['agent.tools[0].plan.steps[0].tools[0].name', `"pa" calls itself through pa -> pb -> pa${wording}`],
      ['agent.tools[2].chain.steps[0].tool', `"self" calls itself through self -> self${wording}`],
      ['agent.tools[3].chain.steps[1].tool', `"self2" calls itself through self2 -> self2${wording}`],
    ]);
  });

  it('composites that nest without a cycle still load, and a tool named like a built-in is the tool', () => {
    expect(() =>
      revisionFromValue({
        id: 'ok',
        agent: {
          name: 'Ok',
          tools: [
            { name: 'outer', chain: { steps: [{ tool: 'inner' }, { tool: 'inner' }] } },
            { name: 'inner', plan: { steps: [{ tools: [{ name: 'echo', arguments: { text: 'x' } }, { name: 'leaf' }] }] } },
            { name: 'leaf', chain: { steps: [{ tool: 'echo', inputs: { text: 'y' } }] } },
          ],
        },
      }),
    ).not.toThrow();
  });
});

describe('nested calls deeper than the limit are refused at run time', () => {
  it('a self-calling chain built without load validation stops with a tool error, not a stack overflow', async () => {
    const loop = createChainTool({ name: 'loop', parameters: anyArgs, chain: { steps: [{ tool: 'loop' }] } });
    const { tracer, store } = installTracing();
    const caller = callerOf(new Map<string, Tool>([['loop', loop]]), tracer);
    const root = tracer.startSpan('root');
    const call = await caller.call({ name: 'loop', args: {}, source: 'model', parent: trace.setSpan(ROOT_CONTEXT, root) });
    root.end();
    expect(call.isError).toBe(true);
    expect(call.errorType).toBe('chain_failed');
    const spans = store.take(root.spanContext().traceId);
    const calls = spans.filter((span) => span.name === 'execute_tool loop');
    // Depth 0 (the model's call) through 16 run; the 17th level is refused.
    expect(calls).toHaveLength(MAX_CALL_DEPTH + 2);
    const refused = calls.filter((span) => span.attributes['agentcheck.tool.refused'] === 'call_depth_exceeded');
    expect(refused).toHaveLength(1);
    expect(refused[0].attributes['error.type']).toBe('call_depth_exceeded');
    expect(call.content.length).toBeLessThan(10_000); // each level adds a sentence, not a re-escaped copy
    expect(call.content).toContain('beyond the limit of 16 (chains and plans calling each other that deep');
    expect(call.content).not.toContain('calls itself');
  });

  it('a failure deep in alternating chains and plans reaches the model as sentences, not JSON escaped at every level', async () => {
    const tools = new Map<string, Tool>();
    const levels = 12;
    for (let level = 0; level < levels; level++) {
      const name = `c${level}`;
      const next = level === levels - 1 ? 'fails' : `c${level + 1}`;
      tools.set(
        name,
        level % 2 === 0
          ? createChainTool({ name, parameters: anyArgs, chain: { steps: [{ tool: next }] } })
          : createPlanTool({ name, parameters: anyArgs, plan: { steps: [{ tools: [{ name: next }] }] } }),
      );
    }
    tools.set('fails', createPlanTool({ name: 'fails', parameters: anyArgs, plan: { steps: [{ tools: [{ name: 'nowhere' }] }] } }));
    const caller = callerOf(tools);
    const call = await caller.call({ name: 'c0', args: {}, source: 'model', parent: ROOT_CONTEXT });
    expect(call.isError).toBe(true);
    expect(call.content.length).toBeLessThan(20_000);
    expect((call.content.match(/\\/g) ?? []).length).toBeLessThan(200);
  });

  it('two plans calling each other stop the same way', async () => {
    const plan = (name: string, other: string) => createPlanTool({ name, parameters: anyArgs, plan: { steps: [{ tools: [{ name: other }] }] } });
    const caller = new ToolCaller({
      tools: new Map<string, Tool>([
        ['p', plan('p', 'q')],
        ['q', plan('q', 'p')],
      ]),
      agent: { name: 'a' },
      security: createPromptSecurity(),
      tracer: installTracing().tracer,
      workspace: FolderWorkspace.temp(),
      env: {},
    });
    const call = await caller.call({ name: 'p', args: {}, source: 'model', parent: ROOT_CONTEXT });
    expect(call.isError).toBe(true);
    expect(call.content).toContain('beyond the limit of 16');
  });

  it('calls at the limit still run', async () => {
    // A chain of 16 distinct composites, each calling the next, ends in echo at depth 16.
    const tools = new Map<string, Tool>();
    for (let level = 0; level < MAX_CALL_DEPTH; level++) {
      const next = level === MAX_CALL_DEPTH - 1 ? 'leaf' : `c${level + 1}`;
      tools.set(`c${level}`, createChainTool({ name: `c${level}`, parameters: anyArgs, chain: { steps: [{ tool: next }] } }));
    }
    tools.set('leaf', {
      name: 'leaf',
      description: 'l',
      parameters: anyArgs,
      readOnly: true,
      kind: 'returns',
      execute: async () => ({ result: 'bottom', isError: false }),
    });
    const caller = callerOf(tools);
    const call = await caller.call({ name: 'c0', args: {}, source: 'model', parent: ROOT_CONTEXT });
    expect(call.isError).toBe(false);
  });
});
