import { describe, expect, it } from 'vitest';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import { build, runScripted, toolSpans } from '../../helpers/run-agent.js';
import { lineage, spansNamed } from '../../helpers/span-tree.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** The seed example of docs/workflows.md, STEP plans. */
const seedPlan = {
  constants: { limit: 5, prefix: '{{ limit }}-x' },
  steps: [
    {
      tools: [
        { name: 'find_files', arguments: { pattern: '.*', limit: '{{ limit }}' }, returns: 'files' },
        {
          name: 'for_each',
          items: '{{ files }}',
          each_item: {
            item_name: 'file',
            tools: [
              { name: 'read_file', arguments: { path: '{{ file }}' }, returns: 'content' },
              {
                name: 'if_else',
                condition: '{{ content }}',
                if: { tools: [{ name: 'echo', arguments: { text: 'has content: {{ file }}' } }] },
                else: { tools: [{ name: 'echo', arguments: { text: 'empty: {{ file }}' } }] },
              },
            ],
          },
        },
      ],
    },
  ],
};

function planAgent(plan: Record<string, unknown>, extraTools: Record<string, unknown>[] = []) {
  return build({ tools: [{ name: 'report', description: 'Run the plan.', plan }, ...extraTools] });
}

/** Runs the plan tool once through invoke and returns its tool message and spans. */
async function runPlan(plan: Record<string, unknown>, options: { workspace?: FolderWorkspace; extraTools?: Record<string, unknown>[]; args?: unknown } = {}) {
  const { turn, spans } = await runScripted(
    planAgent(plan, options.extraTools),
    [{ tool_calls: [{ name: 'report', args: options.args ?? {} }] }, { text: 'done' }],
    { workspace: options.workspace },
  );
  const message = turn.messages.find((m) => m.role === 'tool');
  if (!message || message.role !== 'tool') throw new Error('no tool result');
  return { turn, spans, message, result: message.is_error ? message.content : JSON.parse(message.content) };
}

describe('STEP plans: the plan tool', () => {
  it('runs the seed example over a real folder: find, read each, echo by content', async () => {
    const dir = tempDir({ 'a.txt': 'hello', 'b.txt': '', 'sub/c.txt': 'x' });
    const { message, result, spans } = await runPlan(seedPlan, { workspace: FolderWorkspace.at(dir) });
    expect(message.is_error).toBe(false);
    expect(result.log).toEqual(['has content: a.txt', 'empty: b.txt', 'has content: sub/c.txt']);
    // The top-level scope after the run: constants and returns; the loop's bindings stay inside.
    expect(result.variables).toEqual({ limit: 5, prefix: '5-x', files: ['a.txt', 'b.txt', 'sub/c.txt'] });

    const find = toolSpans(spans).find((s) => s.name === 'execute_tool find_files');
    expect(JSON.parse(String(find?.attributes['gen_ai.tool.call.arguments']))).toEqual({ pattern: '.*', limit: 5 });
    expect(find?.attributes['agentcheck.tool.source']).toBe('plan');

    const echo = toolSpans(spans).filter((s) => s.name === 'execute_tool echo')[1];
    expect(lineage(spans, echo)).toEqual([
      'execute_tool echo',
      'plan_step echo',
      'plan_step if_else',
      'plan_step for_each',
      'execute_tool report',
      'invoke_agent Test agent',
    ]);
    const paths = spansNamed(spans, 'plan_step echo').map((s) => s.attributes['agentcheck.plan.step_path']);
    expect(paths).toEqual([
      'steps[0].tools[1].each_item.tools[1].if.tools[0]',
      'steps[0].tools[1].each_item.tools[1].else.tools[0]',
      'steps[0].tools[1].each_item.tools[1].if.tools[0]',
    ]);
    const read = spansNamed(spans, 'plan_step read_file')[0];
    expect(read.attributes).toMatchObject({ 'gen_ai.tool.name': 'read_file', 'agentcheck.plan.step_path': 'steps[0].tools[1].each_item.tools[0]' });
    expect(spansNamed(spans, 'plan_step for_each')[0].attributes['agentcheck.plan.items']).toBe(3);
  });

  it('keeps the type of a whole-string template and stringifies embedded ones', async () => {
    const sink = {
      name: 'sink',
      description: 'Takes typed values.',
      parameters: {
        type: 'object',
        properties: { items: { type: 'array' }, count: { type: 'integer' }, first: { type: 'integer' }, deep: { type: 'string' } },
        required: ['items', 'count'],
        additionalProperties: false,
      },
      returns: { ok: true },
    };
    const { result, spans } = await runPlan(
      {
        constants: { nums: [1, 2, 3], n: 7, obj: { a: { b: 'deep' } } },
        steps: [
          {
            tools: [
              { name: 'sink', arguments: { items: '{{ nums }}', count: '{{ n }}', first: '{{ nums.0 }}', deep: '{{ obj.a.b }}' }, returns: 'sunk' },
              { name: 'echo', arguments: { text: '{{ nums }}-suffix' } },
              { name: 'echo', arguments: { text: 'n={{ n }} obj={{ obj }} sunk={{ sunk.ok }}' } },
            ],
          },
        ],
      },
      { extraTools: [sink] },
    );
    expect(result.log).toEqual(['[1,2,3]-suffix', 'n=7 obj={"a":{"b":"deep"}} sunk=true']);
    expect(result.variables.sunk).toEqual({ ok: true });
    const call = toolSpans(spans).find((s) => s.name === 'execute_tool sink');
    expect(JSON.parse(String(call?.attributes['gen_ai.tool.call.arguments']))).toEqual({ items: [1, 2, 3], count: 7, first: 1, deep: 'deep' });
  });

  it('binds the call arguments in the top-level scope', async () => {
    const { result } = await runPlan(
      { steps: [{ tools: [{ name: 'echo', arguments: { text: 'hi {{ who }}' }, returns: 'said' }] }] },
      { args: { who: 'Ann' } },
    );
    expect(result).toEqual({ variables: { who: 'Ann', said: 'hi Ann' }, log: ['hi Ann'] });
  });

  it('keeps scope lexical: a nested binding never changes the outer one', async () => {
    const { result } = await runPlan({
      constants: { flag: true, empty: [] },
      steps: [
        {
          tools: [
            { name: 'echo', arguments: { text: 'outer' }, returns: 'x' },
            {
              name: 'if_else',
              condition: '{{ flag }}',
              if: {
                tools: [
                  { name: 'echo', arguments: { text: 'inner sees {{ x }}' }, returns: 'x' },
                  { name: 'echo', arguments: { text: 'now {{ x }}' } },
                ],
              },
            },
            { name: 'if_else', condition: '{{ empty }}', if: { tools: [{ name: 'echo', arguments: { text: 'never' } }] } },
            { name: 'echo', arguments: { text: 'after {{ x }}' } },
          ],
        },
      ],
    });
    expect(result.log).toEqual(['outer', 'inner sees outer', 'now inner sees outer', 'after outer']);
    expect(result.variables.x).toBe('outer');
  });

  it('gives each for_each item a fresh scope', async () => {
    const { result } = await runPlan({
      constants: { items: ['a', 'b'] },
      steps: [
        {
          tools: [
            {
              name: 'for_each',
              items: '{{ items }}',
              each_item: { item_name: 'it', tools: [{ name: 'echo', arguments: { text: '{{ it }}' }, returns: 'last' }] },
            },
          ],
        },
        { tools: [{ name: 'echo', arguments: { text: 'done' } }] },
      ],
    });
    expect(result.log).toEqual(['a', 'b', 'done']);
    expect(Object.keys(result.variables)).toEqual(['items']);
  });

  it('fails with the variable and the step path for an undefined variable', async () => {
    const { message } = await runPlan({
      constants: { items: [1] },
      steps: [
        {
          tools: [
            { name: 'echo', arguments: { text: 'start' } },
            { name: 'for_each', items: '{{ items }}', each_item: { item_name: 'i', tools: [{ name: 'echo', arguments: { text: '{{ missing }}' } }] } },
          ],
        },
      ],
    });
    expect(message.is_error).toBe(true);
    expect(message.content).toContain('undefined variable "missing"');
    expect(message.content).toContain('steps[0].tools[1].each_item.tools[0]');
  });

  it('fails when for_each items is not an array', async () => {
    const { message, spans } = await runPlan({
      constants: { limit: 5 },
      steps: [{ tools: [{ name: 'for_each', items: '{{ limit }}', each_item: { item_name: 'i', tools: [{ name: 'echo', arguments: { text: 'x' } }] } }] }],
    });
    expect(message.is_error).toBe(true);
    expect(message.content).toBe('for_each at steps[0].tools[0]: "items" ("{{ limit }}") must be an array, got number 5');
    const span = toolSpans(spans).find((s) => s.name === 'execute_tool report');
    expect(span?.attributes['error.type']).toBe('plan_not_an_array');
  });

  it('stops after max_iterations tool calls', async () => {
    const { message, spans } = await runPlan({
      constants: { items: [1, 2, 3, 4, 5] },
      max_iterations: 3,
      steps: [
        { tools: [{ name: 'for_each', items: '{{ items }}', each_item: { item_name: 'i', tools: [{ name: 'echo', arguments: { text: 'item {{ i }}' } }] } }] },
      ],
    });
    expect(message.is_error).toBe(true);
    expect(message.content).toContain('max_iterations (3)');
    expect(message.content).toContain('steps[0].tools[0].each_item.tools[0]');
    expect(spansNamed(spans, 'execute_tool echo')).toHaveLength(3);
  });

  it('fails with a tool error naming the step path when a nested call fails', async () => {
    const { message, spans } = await runPlan({ steps: [{ tools: [{ name: 'read_file', arguments: { path: 'nope.txt' } }] }] });
    expect(message.is_error).toBe(true);
    expect(message.content).toMatch(/^plan step steps\[0\]\.tools\[0\]: tool "read_file" failed: /);
    const step = spansNamed(spans, 'plan_step read_file')[0];
    expect(step.status).toBe('error');
    expect(toolSpans(spans).find((s) => s.name === 'execute_tool report')?.attributes['error.type']).toBe('plan_tool_failed');
  });

  it("spells a failure on its plan_step spans as on the plan tool's execute_tool, lower case", async () => {
    const failing = {
      steps: [
        { tools: [{ name: 'for_each', items: ['nope.txt'], each_item: { item_name: 'f', tools: [{ name: 'read_file', arguments: { path: '{{ f }}' } }] } }] },
      ],
    };
    const { spans } = await runPlan(failing);
    // The failed step and the for_each it sits in: both ended by the plan's failure.
    for (const name of ['plan_step read_file', 'plan_step for_each']) {
      expect(spansNamed(spans, name)[0]).toMatchObject({ status: 'error', attributes: { 'error.type': 'plan_tool_failed' } });
    }
    expect(toolSpans(spans).find((s) => s.name === 'execute_tool report')?.attributes['error.type']).toBe('plan_tool_failed');
    const notAnArray = await runPlan(
      { steps: [{ tools: [{ name: 'for_each', items: '{{ x }}', each_item: { item_name: 'i', tools: [{ name: 'echo', arguments: { text: 'i' } }] } }] }] },
      { args: { x: 5 } },
    );
    expect(spansNamed(notAnArray.spans, 'plan_step for_each')[0].attributes['error.type']).toBe('plan_not_an_array');
  });

  it('fails on an error-shaped answer as a chain step would ({ok: false, error}, status: "error"), with its message', async () => {
    const extraTools = [
      { name: 'slack', description: 's', returns: { ok: false, error: 'not_in_channel' } },
      { name: 'st', description: 's', returns: { status: 'error', message: 'boom' } },
    ];
    for (const [tool, said] of [
      ['slack', 'not_in_channel'],
      ['st', 'boom'],
    ]) {
      const plan = {
        steps: [
          {
            tools: [
              { name: tool, returns: 'r' },
              { name: 'echo', arguments: { text: 'after' } },
            ],
          },
        ],
      };
      const { message, spans } = await runPlan(plan, { extraTools });
      expect(message.is_error).toBe(true);
      expect(message.content).toBe(`plan step steps[0].tools[0]: tool "${tool}" failed: ${said}`);
      expect(spansNamed(spans, 'execute_tool echo')).toHaveLength(0);
      expect(spansNamed(spans, `execute_tool ${tool}`)[0].attributes['agentcheck.tool.outcome']).toBe('error');
    }
  });
});
