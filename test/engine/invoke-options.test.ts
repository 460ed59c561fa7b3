import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { invoke } from '../../src/engine/invoke.js';
import { McpServerPool } from '../../src/engine/mcp/mcp-server-pool.js';
import { resume } from '../../src/engine/resume.js';
import { loadAgentBuild, revisionFromValue } from '../../src/engine/revision/load-build.js';
import { memoryLocator } from '../../src/config/assert-format.js';
import { approvalsFor, checkApprovals } from '../../src/engine/permissions/check-approvals.js';

const ROOT = join(import.meta.dirname, '../..');
const revision = loadAgentBuild(join(ROOT, 'fixtures/agents/coding-agent.yaml'));
const input = { messages: [{ role: 'user' as const, content: 'go' }] };

async function problemOf(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as Error).message;
}

describe('invoke checks what a library caller gives it', () => {
  it('names every wrong option and message in one ConfigError instead of running with them ignored', async () => {
    const message = await problemOf(
      invoke(
        revision,
        { messages: [{ role: 'bot', content: 'hi' }] } as never,
        {
          workspace: 'ws' as never,
          approvals: { default: 'yes' } as never,
          script: [1] as never,
          scirpt: [] as never,
        } as never,
      ),
    );
    expect(message).toContain('invoke at options.workspace: expected a Workspace such as FolderWorkspace.copyOf(dir) (an object with root()), got string "ws"');
    expect(message).toContain('invoke at options.approvals.default: expected one of "approve" | "deny", got string "yes"');
    expect(message).toContain('invoke at options.script[0]: expected object, got number 1');
    expect(message).toContain('invoke at options.scirpt: unknown option "scirpt"');
    expect(message).toContain('invoke at input.messages[0].role: expected one of "user" | "assistant" | "tool", got string "bot"');
  });

  it('refuses an mcpServers that is no McpServerPool (an object with close() too), in invoke and resume, for a build without MCP servers', async () => {
    for (const given of [{}, { close: () => undefined }]) {
      expect(await problemOf(invoke(revision, input, { script: [{ text: 'x' }], mcpServers: given as never }))).toBe(
        'invoke at options.mcpServers: expected an McpServerPool, got an object',
      );
      expect(await problemOf(resume(revision, {} as never, undefined, { mcpServers: given as never }))).toContain(
        'resume at options.mcpServers: expected an McpServerPool, got an object',
      );
    }
    const pool = new McpServerPool();
    try {
      expect((await invoke(revision, input, { script: [{ text: 'x' }], mcpServers: pool })).stop_reason).toBe('end_turn');
    } finally {
      await pool.close();
    }
  });

  it('names a script entry that is no object at its index, and a script that is no list as what it is, as testRun does', async () => {
    for (const [script, expected] of [
      [[null], 'options.script[0]: expected object, got null'],
      [[{ text: 'a' }, []], 'options.script[1]: expected object, got an array'],
      [{ text: 'a' }, 'options.script: expected array, got an object'],
    ] as const) {
      expect(await problemOf(invoke(revision, input, { script: script as never }))).toBe(`invoke at ${expected}`);
      expect(await problemOf(resume(revision, {} as never, undefined, { script: script as never }))).toContain(`resume at ${expected}`);
    }
  });

  it('places an approvals problem at its key, with did-you-mean for a misspelt one, as testRun does', async () => {
    expect(await problemOf(invoke(revision, input, { script: [{ text: 'x' }], approvals: { defualt: 'deny' } as never }))).toBe(
      'invoke at options.approvals.defualt: unknown key "defualt" (did you mean "default"?); expected one of: default, tools',
    );
    expect(await problemOf(invoke(revision, input, { script: [{ text: 'x' }], approvals: { default: 'yes' } as never }))).toBe(
      'invoke at options.approvals.default: expected one of "approve" | "deny", got string "yes"',
    );
  });

  it('refuses approvals.default "reject" as a scenario and --approvals file do (reject is a per-tool answer only)', async () => {
    const invoked = await problemOf(invoke(revision, input, { script: [{ text: 'done' }], approvals: { default: 'reject' } as never }));
    expect(invoked).toContain('invoke at options.approvals.default: expected one of "approve" | "deny", got string "reject"');
    const resumed = await problemOf(resume(revision, {} as never, undefined, { approvals: { default: 'reject' } as never }));
    expect(resumed).toContain('resume at options.approvals.default: expected one of "approve" | "deny", got string "reject"');
  });

  it('refuses an encodedTags entry that is no tag name (not a string, empty, blank, with < or a space), at its index', async () => {
    for (const [tags, index, shown] of [
      [[5], 0, 'number 5'],
      [['system', null], 1, 'null'],
      [[''], 0, 'string ""'],
      [['system', '  '], 1, 'string "  "'],
      [['system', '<goal>'], 1, 'string "<goal>"'],
    ] as const) {
      const message = await problemOf(invoke(revision, input, { script: [{ text: 'hi' }], encodedTags: [...tags] as string[] }));
      expect(message).toBe(`invoke at options.encodedTags[${index}]: expected a tag name such as "system" (no spaces, <, > or /), got ${shown}`);
    }
  });

  it('refuses an option named like an Object.prototype member as unknown, never a TypeError', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
      const message = await problemOf(invoke(revision, input, { script: [{ text: 'x' }], [name]: 1 } as never));
      expect(message).toContain(`invoke at options.${name}: unknown option "${name}"`);
    }
  });

  it('names resume as the caller of a wrong resume option', async () => {
    const message = await problemOf(resume(revision, {} as never, undefined, { scirpt: [] } as never));
    expect(message).toContain('resume at options.scirpt: unknown option "scirpt"');
    expect(message).not.toContain('invoke at');
  });

  it('still runs with sound options', async () => {
    const turn = await invoke(revision, input, { script: [{ text: 'done' }], approvals: { default: 'approve', tools: { write_file: 'deny' } } });
    expect(turn).toMatchObject({ stop_reason: 'end_turn', output: 'done' });
  });

  it('ends the turn at once when the workspace folder it copies is missing, not in every file tool', async () => {
    const { FolderWorkspace } = await import('../../src/engine/workspace/folder-workspace.js');
    const turn = await invoke(revision, input, {
      script: [{ tool_calls: [{ name: 'list_dir', args: { path: '.' } }] }, { text: 'done' }],
      workspace: FolderWorkspace.copyOf(join(ROOT, 'no-such-folder')),
    });
    expect(turn).toMatchObject({ stop_reason: 'error', error: { type: 'WORKSPACE_NOT_FOUND' } });
    expect(turn.messages.filter((message) => message.role === 'tool')).toEqual([]);
    const file = join(ROOT, 'package.json');
    const onFile = await invoke(revision, input, { script: [{ text: 'done' }], workspace: FolderWorkspace.copyOf(file) });
    expect(onFile.error).toEqual({ type: 'WORKSPACE_NOT_FOUND', message: `workspace must be a folder, but ${file} is a file` });
  });

  it('refuses the script entries testRun refuses, with its messages, at options.script (invoke and resume)', async () => {
    const cases: Array<[unknown[], string]> = [
      [
        [{ txt: 'Refund created.' }],
        'invoke at options.script[0].txt: unknown key "txt" (did you mean "text"?); expected one of: text, tool_calls, usage, delay_ms, error',
      ],
      [[{}], 'invoke at options.script[0]: an entry needs text, tool_calls or error: what the model answers on that call'],
      [
        [{ text: 'x', error: { message: 'boom' } }],
        'invoke at options.script[0].error: an entry is either an answer (text and/or tool_calls) or an error, not both: a call that fails answers nothing, so its text and tool_calls would be dropped; remove one',
      ],
      [
        [{ tool_calls: [] }],
        'invoke at options.script[0].tool_calls: an entry needs text, tool_calls or error: an empty tool_calls list answers nothing (give at least one call, or text: "" for an empty answer)',
      ],
      [[{ text: 'x', bogus: 1 }], 'invoke at options.script[0].bogus: unknown key "bogus"; expected one of: text, tool_calls, usage, delay_ms, error'],
      [
        [
          {
            tool_calls: [
              { name: 'list_dir', id: 'a' },
              { name: 'list_dir', id: 'a' },
            ],
          },
        ],
        'invoke at options.script[0].tool_calls[1].id: duplicate tool call id "a" (also tool_calls[0]); the calls of one response need distinct ids',
      ],
      [[], 'invoke at options.script: a script needs at least one entry, one per model call (text, tool_calls or error)'],
    ];
    for (const [script, expected] of cases) {
      expect(await problemOf(invoke(revision, input, { script: script as never }))).toBe(expected);
    }
    // Optional keys a caller spreads as undefined are not given.
    const turn = await invoke(revision, input, { script: [{ text: 'done', usage: undefined }] });
    expect(turn.stop_reason).toBe('end_turn');
    expect(await problemOf(resume(revision, {} as never, undefined, { script: [{ txt: 'x' }] as never }))).toContain(
      'resume at options.script[0].txt: unknown key "txt" (did you mean "text"?)',
    );
  });

  it("takes an MCP tool's tool part in approvals.tools only when it names exactly one tool", async () => {
    const mcp = (name: string) => ({ name, command: ['node', 'server.js'], tools: ['list_directory'] });
    const one = revisionFromValue({ id: 'one', agent: { name: 'One', mcps: [mcp('fs')] } }, 'one');
    const two = revisionFromValue({ id: 'two', agent: { name: 'Two', mcps: [mcp('fs'), mcp('disk')] } }, 'two');
    expect(() => checkApprovals({ tools: { list_directory: 'approve' } }, [one.build], memoryLocator('approvals'))).not.toThrow();
    expect(approvalsFor({ tools: { list_directory: 'approve' } }, one.build)).toEqual({ tools: { mcp__fs__list_directory: 'approve' } });
    expect(() => checkApprovals({ tools: { list_directory: 'approve' } }, [two.build], memoryLocator('approvals'))).toThrow(
      /^approvals at tools\.list_directory: "list_directory" names no tool of the agent; expected one of: .*; it is the tool part of "mcp__fs__list_directory" and "mcp__disk__list_directory": did you mean one of them\?$/,
    );
  });

  it('never suggests the mcp__<server>__* that stands for a server without a tools list, but a name of that server', () => {
    const open = revisionFromValue({ id: 'open', agent: { name: 'Open', mcps: [{ name: 'kv', command: ['node', 'server.js'] }] } }, 'open');
    expect(() => checkApprovals({ tools: { mcp__zz__x: 'deny' } }, [open.build], memoryLocator('approvals'))).toThrow(
      /^approvals at tools\.mcp__zz__x: "mcp__zz__x" names no tool of the agent; expected one of: .*mcp__kv__\*; did you mean "mcp__kv__x"\?$/,
    );
  });

  it('holds approvals.tools to the build as testRun does: a name it lacks, an answer a tool gate cannot take', async () => {
    const script = [{ text: 'done' }];
    expect(await problemOf(invoke(revision, input, { script, approvals: { tools: { write_fil: 'deny' } } }))).toMatch(
      /^invoke at options\.approvals\.tools\.write_fil: "write_fil" names no tool of the agent; expected one of: .*write_file.*; did you mean "write_file"\?$/,
    );
    expect(await problemOf(invoke(revision, input, { script, approvals: { tools: { write_file: 'nah' } } }))).toBe(
      'invoke at options.approvals.tools.write_file: a tool\'s approval gate takes "approve", "deny", "reject"; got "nah"',
    );
    expect(await problemOf(resume(revision, {} as never, undefined, { approvals: { tools: { write_fil: 'deny' } } }))).toContain(
      'resume at options.approvals.tools.write_fil: "write_fil" names no tool of the agent',
    );
    const turn = await invoke(revision, input, { script, approvals: { tools: { write_file: 'reject' } } });
    expect(turn.stop_reason).toBe('end_turn');
  });

  it('refuses misspelt or malformed input and skills keys, which testRun refuses too', async () => {
    const script = [{ text: 'done' }];
    const user = { role: 'user', content: 'hi' };
    const cases: Array<[unknown, object, string]> = [
      [{ messages: [user], contxt: {} }, {}, 'invoke at input.contxt: unknown key "contxt" (did you mean "context"?); expected one of: messages, context'],
      [{ messages: [user], context: 'x' }, {}, 'invoke at input.context: expected an object (a flow\'s initial context), got string "x"'],
      [
        { messages: [{ ...user, contnt: 'y' }] },
        {},
        'invoke at input.messages[0].contnt: unknown key "contnt" (did you mean "content"?); expected one of: role, content',
      ],
      // Without any content the misspelt key is named too, not the whole message as "an object".
      [
        { messages: [{ role: 'user', contnt: 'x' }] },
        {},
        'invoke at input.messages[0].contnt: unknown key "contnt" (did you mean "content"?); expected one of: role, content',
      ],
      [{ messages: [{ role: 'user', content: 3 }] }, {}, 'invoke at input.messages[0].content: expected a string, got number 3'],
      [{ messages: [{ role: 'user' }] }, {}, 'invoke at input.messages[0].content: expected a string, got nothing'],
      // A misspelt role is named once, as the unknown key it is, held to every role's keys.
      [
        { messages: [{ rol: 'user', content: 'x' }] },
        {},
        'invoke at input.messages[0].rol: unknown key "rol" (did you mean "role"?); expected one of: role, content, tool_calls, provider_content, tool_call_id, tool_name, is_error, denied',
      ],
      ['not a message', {}, 'invoke at input.messages[0]: expected a message {role: user | assistant | tool, content: string}, got string "not a message"'],
      [{ messages: [] }, {}, 'invoke at input.messages: expected at least one message {role, content}, got an empty list'],
      [
        input,
        { skills: { forcd: [] } },
        'invoke at options.skills.forcd: unknown key "forcd" (did you mean "forced"?); expected one of: forced, overlay, delivery',
      ],
    ];
    for (const [given, options, expected] of cases) {
      const shaped = typeof given === 'string' ? { messages: [given] } : given;
      expect(await problemOf(invoke(revision, shaped as never, { script, ...options }))).toBe(expected);
    }
    // Each problem of one message is named, not only the first.
    const both = await problemOf(invoke(revision, { messages: [{ role: 'bot', contnt: 'x' }] } as never, { script }));
    expect(both).toContain('invoke at input.messages[0].contnt: unknown key "contnt" (did you mean "content"?)');
    expect(both).toContain('invoke at input.messages[0].role: expected one of "user" | "assistant" | "tool", got string "bot"');
    // A transcript passed back in keeps the keys its messages have.
    const turn = await invoke(revision, input, { script });
    expect((await invoke(revision, { messages: turn.messages }, { script })).stop_reason).toBe('end_turn');
  });

  it('refuses skill folders that are no skill before the run, as testRun does, at options.skills (invoke and resume)', async () => {
    const script = [{ text: 'done' }];
    const missing = join(ROOT, 'no-such-skill');
    const notSkill = join(ROOT, 'fixtures/agents');
    const message = await problemOf(
      invoke(revision, input, { script, skills: { forced: [missing], overlay: [join(ROOT, 'fixtures/skills/getting-started'), notSkill] } }),
    );
    expect(message).toContain(`invoke at options.skills.forced[0]: skill folder "${missing}" does not exist; expected a folder that holds SKILL.md`);
    expect(message).toMatch(/invoke at options\.skills\.overlay\[1\]: .*SKILL\.md/);
    expect(message).not.toContain('overlay[0]');
    expect(await problemOf(resume(revision, {} as never, undefined, { skills: { overlay: [missing] } }))).toContain(
      `resume at options.skills.overlay[0]: skill folder "${missing}" does not exist`,
    );
    const turn = await invoke(revision, input, { script, skills: { forced: [join(ROOT, 'fixtures/skills/getting-started')] } });
    expect(turn.stop_reason).toBe('end_turn');
  });

  it('refuses a tool result without the id of the call it answers, which testRun has no tool messages to need', async () => {
    const script = [{ text: 'done' }];
    const call = { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'c1', tool_name: 'list_dir', input: {} }] };
    const result = { role: 'tool', tool_name: 'list_dir', content: 'a.txt', is_error: false };
    for (const [id, shown] of [
      [undefined, 'nothing'],
      ['', 'string ""'],
      [7, 'number 7'],
    ] as const) {
      const messages = [input.messages[0], call, id === undefined ? result : { ...result, tool_call_id: id }];
      expect(await problemOf(invoke(revision, { messages } as never, { script }))).toBe(
        `invoke at input.messages[2].tool_call_id: expected the id of the assistant tool call it answers, got ${shown}`,
      );
    }
    const turn = await invoke(revision, { messages: [input.messages[0], call, { ...result, tool_call_id: 'c1' }] } as never, { script });
    expect(turn.stop_reason).toBe('end_turn');
  });

  it('refuses a tool result answering no earlier call and tool_calls entries with wrong keys, instead of running the open call', async () => {
    const script = [{ text: 'done' }];
    const call = { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'c1', tool_name: 'list_dir', input: {} }] };
    const result = { role: 'tool', tool_call_id: 'c9', tool_name: 'list_dir', content: 'a.txt', is_error: false };
    expect(await problemOf(invoke(revision, { messages: [input.messages[0], call, result] } as never, { script }))).toBe(
      'invoke at input.messages[2].tool_call_id: expected the id of an earlier assistant tool call it answers (one of: "c1"), got string "c9"',
    );
    // Another SDK's shape of a call: each key named, and the required ones as missing.
    const other = { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'list_dir', args: {} }] };
    const message = await problemOf(invoke(revision, { messages: [input.messages[0], other] } as never, { script }));
    expect(message).toContain('invoke at input.messages[1].tool_calls[0].id: unknown key "id"');
    expect(message).toContain('invoke at input.messages[1].tool_calls[0].args: unknown key "args"');
    expect(message).toContain('invoke at input.messages[1].tool_calls[0].tool_name: expected a non-empty string, got nothing');
    expect(await problemOf(invoke(revision, { messages: [input.messages[0], { ...call, tool_calls: 'x' }] } as never, { script }))).toBe(
      'invoke at input.messages[1].tool_calls: expected a list of tool calls {tool_call_id, tool_name, input}, got string "x"',
    );
  });

  it('refuses model and script given together rather than dropping the script', async () => {
    const model = { provider: 'mine', modelId: 'm1', generate: () => Promise.reject(new Error('not called')) };
    expect(await problemOf(invoke(revision, input, { model: model as never, script: [{ text: 'x' }] }))).toBe(
      'invoke at options.script: give model or script, not both: they are two ways to give the model (a Model of your own, or scripted responses)',
    );
  });

  it("ends the turn naming a custom model whose response is not a ModelResponse, not with the loop's TypeError", async () => {
    const model = { provider: 'mine', modelId: 'm1', generate: () => Promise.resolve({ text: 5 }) };
    const turn = await invoke(revision, input, { model: model as never });
    expect(turn.stop_reason).toBe('error');
    expect(turn.error).toEqual({
      type: 'MODEL_FAILED',
      message:
        'model mine/m1 returned a wrong response (text: got number 5); expected a ModelResponse {text: string, toolCalls: [{id, name, args}], finishReason: {unified, raw}, usage: {input_tokens, output_tokens}}',
    });
  });

  it('names the field of a wrong response that is missing or mistyped, not only the object holding it', async () => {
    const usage = { input_tokens: 1, output_tokens: 1 };
    const said = async (response: object) => {
      const model = { provider: 'mine', modelId: 'm1', generate: () => Promise.resolve({ text: '', toolCalls: [], usage, ...response }) };
      const turn = await invoke(revision, input, { model: model as never });
      return /returned a wrong response \((.*)\); expected a ModelResponse/.exec(turn.error?.message ?? '')?.[1];
    };
    expect(await said({ finishReason: { unified: 'stop' } })).toBe('finishReason.raw: got nothing');
    expect(await said({ finishReason: { unified: 5, raw: 'x' } })).toBe(
      'finishReason.unified: got number 5, expected one of stop, tool_calls, length, content_filter, refusal, pause, error, other',
    );
    expect(await said({ finishReason: { unified: null, raw: 'x' } })).toMatch(/^finishReason\.unified: got null, expected one of stop,/);
    expect(await said({ finishReason: 'stop' })).toBe('finishReason: got string "stop"');
    const stop = { unified: 'stop', raw: 'stop' };
    expect(await said({ finishReason: stop, toolCalls: [{ id: 'a' }] })).toBe('toolCalls[0].name: got nothing');
    expect(await said({ finishReason: stop, usage: { input_tokens: 1, output_tokens: '2' } })).toBe('usage.output_tokens: got string "2"');
    // A count that is no count would spoil every total it is summed into.
    expect(await said({ finishReason: stop, usage: { input_tokens: -1, output_tokens: 1 } })).toBe(
      'usage.input_tokens: got number -1, expected a count of tokens (a number >= 0)',
    );
    expect(await said({ finishReason: stop, usage: { input_tokens: 1, output_tokens: Number.NaN } })).toMatch(
      /^usage\.output_tokens: got number NaN, expected a count/,
    );
  });

  it('says what is missing when the input or the revision is not given, rather than a TypeError or a checkpoint mismatch', async () => {
    expect(await problemOf(invoke(revision, undefined as never, { script: [{ text: 'x' }] }))).toBe(
      'invoke at input: expected {messages, context?}, got undefined',
    );
    // A string or a number given as the input is named for what it is.
    expect(await problemOf(invoke(revision, 'Refund order 1' as never, { script: [{ text: 'x' }] }))).toBe(
      'invoke at input: expected {messages, context?}, got string "Refund order 1"',
    );
    expect(await problemOf(invoke(revision, { messages: [{ content: 'hi' }] } as never, { script: [{ text: 'x' }] }))).toBe(
      'invoke at input.messages[0].role: expected one of "user" | "assistant" | "tool", got nothing',
    );
    expect(await problemOf(resume({ id: 'x' } as never, {} as never, 'approve', { script: [{ text: 'x' }] }))).toBe(
      'resume: expected a revision as its first argument: loadAgentBuild(file) or revisionFromValue(value) makes one (not the build object itself)',
    );
  });
});
