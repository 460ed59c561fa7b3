import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, RunError } from '../../src/config/errors.js';
import { McpServerPool } from '../../src/engine/mcp/mcp-server-pool.js';
import { FolderWorkspace } from '../../src/engine/workspace/folder-workspace.js';
import { runScenario } from '../../src/runner/scenario/run-scenario.js';
import { loadScenarioFile } from '../../src/runner/scenario/load-scenario-file.js';
import { executeTestRun, testRun, type TestRunRequest } from '../../src/runner/test-run.js';
import { tempDir } from '../helpers/temp-dir.js';

const agentFile = join(import.meta.dirname, '../../fixtures/agents/support-bot.yaml');
const inputs = { messages: [{ role: 'user' as const, content: 'refund 1234' }] };
const finishing = {
  agent: {
    id: 'ws',
    agent: {
      name: 'Ws',
      tools: [
        { name: 'finish', returns: { done: true } },
        { name: 'look', builtin: 'list_dir' },
      ],
    },
  },
};

/** The ConfigError a request is refused with (never a TypeError, never a run). */
async function refusal(request: Record<string, unknown>): Promise<ConfigError> {
  const error = await testRun(request as unknown as TestRunRequest).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'expected the request to be refused').toBeInstanceOf(ConfigError);
  expect((error as ConfigError).file).toBe('testRun');
  return error as ConfigError;
}

const valid = { agent: agentFile, inputs, script: [{ text: 'done' }] };

describe('testRun validates its request up front', () => {
  it('agent missing or not a path, revision or build object', async () => {
    expect((await refusal({ ...valid, agent: undefined })).message).toBe('testRun: missing required key "agent"');
    expect((await refusal({ ...valid, agent: 5 })).message).toBe(
      'testRun at agent: expected an agent build file path, a loaded revision or an inline build object, got number 5',
    );
  });

  it('a human_input component as terminal_tool is refused with what a test_run can do instead of a state check', async () => {
    const flow = {
      id: 'h',
      agent: { name: 'H', tools: [{ name: 'search', returns: [] }] },
      flow: { entry_point: 'review', components: [{ name: 'review', type: 'human_input' }], routers: [{ from: 'review', to: 'end' }] },
    };
    const error = await refusal({ agent: flow, inputs, expectations: { terminal_tool: 'review' } });
    expect(error.path).toBe('expectations.terminal_tool');
    expect(error.expected).toContain(
      "a test_run has no checks: answer it with approvals (tools: {review: approve}) and read the answer in the root span's agentcheck.flow.state " +
        "(context.review.decision or .response) of the run's spans (its trace_id), or check it with a state check in a scenario",
    );
  });

  it('inputs that are not {messages, context}', async () => {
    expect((await refusal({ ...valid, inputs: null })).message).toBe('testRun at inputs: expected object, got null');
    expect((await refusal({ ...valid, inputs: { messages: [{ role: 'wizard', content: 'hi' }] } })).message).toBe(
      'testRun at inputs.messages[0].role: expected one of "user" | "assistant", got string "wizard"',
    );
    expect((await refusal({ ...valid, inputs: { messages: [{ role: 'user', content: { text: 'hi' } }] } })).path).toBe('inputs.messages[0].content');
    expect((await refusal({ ...valid, inputs: { ...inputs, context: [1] } })).path).toBe('inputs.context');
    expect((await refusal({ ...valid, inputs: { messages: [] } })).path).toBe('inputs.messages');
  });

  it('expectations', async () => {
    expect((await refusal({ ...valid, expectations: { terminal_tool: 5 } })).message).toBe(
      'testRun at expectations.terminal_tool: expected string, got number 5',
    );
    expect((await refusal({ ...valid, expectations: { error_tokens: 'x' } })).path).toBe('expectations.error_tokens');
    expect((await refusal({ ...valid, expectations: { terminal_tool: '/(a+)+/' } })).path).toBe('expectations.terminal_tool');
    expect((await refusal({ ...valid, expectations: { terminal: 'x' } })).path).toBe('expectations.terminal');
  });

  it('approvals, mocks and script with the scenario schemas', async () => {
    expect((await refusal({ ...valid, approvals: 'yes' })).message).toBe('testRun at approvals: expected object, got string "yes"');
    expect((await refusal({ ...valid, approvals: { default: 'maybe' } })).path).toBe('approvals.default');
    expect((await refusal({ ...valid, mocks: { http: 'x' } })).path).toBe('mocks.http');
    expect((await refusal({ ...valid, mocks: { http: [{ url: 'https://x.test', headers: { 'a:b': 'x' } }] } })).message).toContain(
      'testRun at mocks.http[0].headers.a:b: header name "a:b" cannot be sent: it holds ":"',
    );
    expect((await refusal({ ...valid, script: 'x' })).path).toBe('script');
    expect((await refusal({ ...valid, script: [{ text: 5 }] })).message).toBe('testRun at script[0].text: expected string, got number 5');
    const duplicate = await refusal({
      ...valid,
      script: [
        {
          tool_calls: [
            { name: 'a', id: 'c1' },
            { name: 'b', id: 'c1' },
          ],
        },
      ],
    });
    expect(duplicate.path).toBe('script[0].tool_calls[1].id');
    // An answer beside an error would be dropped (the call fails); an empty tool_calls list answers nothing.
    const both = await refusal({ ...valid, script: [{ tool_calls: [{ name: 'lookup_order', args: { order_id: '1' } }], error: { message: 'boom' } }] });
    expect(both.path).toBe('script[0].error');
    expect(both.expected).toContain('an entry is either an answer (text and/or tool_calls) or an error, not both');
    expect((await refusal({ ...valid, script: [{ tool_calls: [] }] })).path).toBe('script[0].tool_calls');
    // A spread answer key left undefined is not given.
    const kept = await testRun({ agent: agentFile, inputs, script: [{ text: undefined, error: { message: 'boom' } }] });
    expect(kept).toMatchObject({ stop_reason: 'error', verdict_reason: 'the invoke errored (MODEL_REQUEST_REJECTED: boom)' });
  });

  it('a key named __proto__ (as JSON.parse keeps it) is an unknown key at its own path, never skipped nor read as its contents', async () => {
    const parsed = (json: string) => JSON.parse(json) as Record<string, unknown>;
    const inputsKey = await refusal({ ...valid, inputs: parsed('{"messages": [{"role": "user", "content": "hi"}], "__proto__": {"context": {"a": 1}}}') });
    expect(inputsKey.path).toBe('inputs.__proto__');
    expect(inputsKey.message).toContain('unknown key "__proto__"');
    expect((await refusal({ ...valid, expectations: parsed('{"__proto__": {"terminal_tool": "finish"}}') })).path).toBe('expectations.__proto__');
    const scriptKey = await refusal({ ...valid, script: [parsed('{"text": "hi", "__proto__": {"x": 1}}')] });
    expect(scriptKey.path).toBe('script[0].__proto__');
    expect(scriptKey.message).not.toContain('"x"');
  });

  it('an approvals.tools name the agent does not have', async () => {
    const error = await refusal({ ...valid, approvals: { default: 'approve', tools: { delet_order: 'deny' } } });
    expect(error.path).toBe('approvals.tools.delet_order');
    expect(error.expected).toContain('expected one of: lookup_order, create_refund, delete_order, send_email');
  });

  it('a workspace folder that does not exist', async () => {
    const error = await refusal({ ...valid, workspace: '/nonexistent/agentcheck-ws' });
    expect(error.message).toBe('testRun at workspace: workspace folder not found: /nonexistent/agentcheck-ws');
  });

  it('a workspace path that is a file, not a folder', async () => {
    const file = join(tempDir({ 'notes.txt': 'x' }), 'notes.txt');
    const error = await refusal({ ...valid, workspace: file });
    expect(error.message).toBe(`testRun at workspace: workspace must be a folder, but ${file} is a file`);
  });

  it('unknown keys and other field types', async () => {
    expect((await refusal({ ...valid, scripts: [] })).message).toMatch(
      /^testRun at scripts: unknown key "scripts" \(did you mean "script"\?\); expected one of: agent, inputs, /,
    );
    expect((await refusal({ ...valid, delta: { sett: {} } })).path).toBe('delta.sett');
    expect((await refusal({ ...valid, model: {} })).path).toBe('model');
    expect((await refusal({ ...valid, signal: 'stop' })).path).toBe('signal');
    expect((await refusal({ ...valid, env: { A: 1 } })).path).toBe('env.A');
    expect((await refusal({ ...valid, skills: { delivery: 'later' } })).path).toBe('skills.delivery');
    expect(await testRun(5 as unknown as TestRunRequest).catch((error: unknown) => (error as Error).message)).toBe(
      'testRun: expected a request object {agent, inputs, ...}, got number 5',
    );
  });

  it('mcpServers that is no McpServerPool is refused before the run, also for a build without MCP servers (never "pool.open is not a function")', async () => {
    for (const [given, described] of [
      [{}, 'an object'],
      [{ close: () => undefined }, 'an object'],
      ['x', 'string "x"'],
    ] as const) {
      expect((await refusal({ ...valid, mcpServers: given })).message).toBe(`testRun at mcpServers: expected an McpServerPool, got ${described}`);
    }
    const pool = new McpServerPool();
    try {
      expect((await testRun({ ...valid, mcpServers: pool })).stop_reason).toBe('end_turn');
    } finally {
      await pool.close();
    }
  });

  it('names an infinite number as such, not as the null JSON would write for it', async () => {
    expect((await refusal({ ...valid, timeout_ms: Infinity })).message).toBe('testRun at timeout_ms: expected integer, got number Infinity');
    expect((await refusal({ ...valid, mocks: { http: [{ url: 'https://shop.test/refunds', json: {}, delay_ms: -Infinity }] } })).message).toBe(
      'testRun at mocks.http[0].delay_ms: expected integer, got number -Infinity',
    );
  });

  it('names the key a misspelt one is near, as invoke and runSuite do', async () => {
    expect((await refusal({ ...valid, agnt: agentFile })).message).toContain(
      'testRun at agnt: unknown key "agnt" (did you mean "agent"?); expected one of: agent,',
    );
  });

  it('refuses model and script given together (two ways to give the model) rather than dropping the script', async () => {
    const model = { provider: 'mine', modelId: 'm1', generate: () => Promise.reject(new Error('not called')) };
    const error = await refusal({ ...valid, model });
    expect(error.path).toBe('script');
    expect(error.message).toBe(
      'testRun at script: give model or script, not both: they are two ways to give the model (a Model of your own, or scripted responses)',
    );
  });

  it('still runs a valid request whose optional fields are spread as undefined', async () => {
    const result = await testRun({
      ...valid,
      expectations: { terminal_tool: undefined, error_tokens: undefined },
      inputs: { messages: inputs.messages, context: undefined },
      approvals: undefined,
      env: { ...process.env, UNSET: undefined },
    });
    expect(result.stop_reason).toBe('end_turn');
  });
});

describe('a workspace that cannot be copied fails the run, naming the source file', () => {
  function unreadableWorkspace(kind: 'fifo' | 'socket'): { dir: string; special: string; close: () => Promise<void> } {
    const dir = tempDir({ 'ws/readme.txt': 'hello' });
    mkdirSync(join(dir, 'ws/sub'));
    const special = join(dir, 'ws/sub', kind === 'fifo' ? 'pipe' : 'sock');
    if (kind === 'fifo') {
      execFileSync('mkfifo', [special]);
      return { dir, special, close: async () => undefined };
    }
    const server = createServer().listen(special);
    return { dir, special, close: () => new Promise((done) => server.close(() => done())) };
  }

  it('executeTestRun rejects before the agent runs (FIFO)', async () => {
    const { dir, special } = unreadableWorkspace('fifo');
    const error = await executeTestRun({ ...finishing, inputs, script: [{ text: 'done' }], workspace: join(dir, 'ws') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunError);
    expect((error as RunError).code).toBe('WORKSPACE_COPY_FAILED');
    expect((error as RunError).message).toBe(`workspace could not be copied: ${special}: it is a named pipe (FIFO), which cannot be copied`);
  });

  it('the folder workspace names the socket in the source, not in the temp copy', async () => {
    const { dir, special, close } = unreadableWorkspace('socket');
    await new Promise((done) => setTimeout(done, 20));
    const workspace = FolderWorkspace.copyOf(join(dir, 'ws'));
    const error = await workspace.root().catch((caught: unknown) => caught);
    await close();
    expect((error as Error).message).toBe(`workspace could not be copied: ${special}: it is a socket, which cannot be copied`);
    expect((error as Error).message).not.toContain('agentcheck-ws-');
  });

  /** A scenario file copying `ws` of `dir` into its workspace, with an agent that never touches it. */
  function scenarioWithWorkspace(dir: string): string {
    writeFileSync(join(dir, 'agent.yaml'), 'id: ws\nagent:\n  name: Ws\n  tools: [{name: finish, returns: {done: true}}]\n');
    writeFileSync(
      join(dir, 'a.scenario.yaml'),
      [
        'name: copies',
        'agent: agent.yaml',
        'workspace: ws',
        'inputs: {messages: [{role: user, content: go}]}',
        'model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}',
        'expect: {terminal_tool: finish}',
        '',
      ].join('\n'),
    );
    return join(dir, 'a.scenario.yaml');
  }

  it('a scenario whose workspace holds a named pipe is refused at load, located at its workspace field', () => {
    const { dir, special } = unreadableWorkspace('fifo');
    const file = scenarioWithWorkspace(dir);
    const error = (() => {
      try {
        loadScenarioFile({ file, root: dir }, { agents: new Map() });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      `${file}:3:12 at workspace: workspace could not be copied: ${special}: it is a named pipe (FIFO), which cannot be copied; expected a folder of regular files, folders and symbolic links`,
    );
  });

  it('testRun refuses a workspace holding a named pipe before the run, as test_run and --workspace do', async () => {
    const { dir, special } = unreadableWorkspace('fifo');
    const error = await testRun({ ...finishing, inputs, script: [{ text: 'done' }], workspace: join(dir, 'ws') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(
      `at workspace: workspace could not be copied: ${special}: it is a named pipe (FIFO), which cannot be copied; expected a folder of regular files, folders and symbolic links`,
    );
  });

  it('a workspace that gained a named pipe after its scenario loaded is an error row, even when the agent never touches it', async () => {
    const dir = tempDir({ 'ws/readme.txt': 'hello' });
    const [scenario] = loadScenarioFile({ file: scenarioWithWorkspace(dir), root: dir }, { agents: new Map() });
    const special = join(dir, 'ws/pipe');
    execFileSync('mkfifo', [special]);
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
    expect(row.status).toBe('error');
    expect(row.error).toEqual({
      type: 'WORKSPACE_COPY_FAILED',
      message: `workspace could not be copied: ${special}: it is a named pipe (FIFO), which cannot be copied`,
    });
  });
});
