import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Model } from '../../src/engine/model/model.js';
import type { ResolvedConfig } from '../../src/engine/resolve-config.js';
import { ScriptedModel } from '../../src/engine/providers/scripted.js';
import { revisionFromValue } from '../../src/engine/revision/load-build.js';
import { executeTestRun, testRun } from '../../src/runner/test-run.js';
import { resumeTestRun } from '../../src/runner/resume/resume-test-run.js';
import { runScenario } from '../../src/runner/scenario/run-scenario.js';
import { loadScenarioFile } from '../../src/runner/scenario/load-scenario-file.js';
import { tempDir } from '../helpers/temp-dir.js';

const agentFile = join(import.meta.dirname, '../../fixtures/agents/support-bot.yaml');
const refundScript = [{ tool_calls: [{ name: 'create_refund', args: { order_id: '1234', reason: 'damaged' } }] }, { text: 'done' }];

describe('testRun', () => {
  it('applies the delta in memory only and reads the result back from spans', async () => {
    const before = readFileSync(agentFile, 'utf8');
    const result = await testRun({
      agent: agentFile,
      inputs: { messages: [{ role: 'user', content: 'refund 1234' }] },
      delta: { set: { agent: { max_turns: 3 } }, remove: ['agent.tools[name=send_email]'] },
      expectations: { terminal_tool: 'create_refund' },
      mocks: { http: [{ method: 'POST', url: 'https://shop.test/refunds', json: { ok: true, id: 'r9' } }] },
      script: refundScript,
    });
    expect(result.verdict).toBe('pass');
    expect(result.verdict_reason).toContain('create_refund');
    expect(result.resolved?.max_turns).toBe(3);
    expect(result.resolved?.tools.map((t) => t.name)).toEqual(['lookup_order', 'create_refund', 'delete_order']);
    expect(result.resolved?.tools.find((t) => t.name === 'delete_order')?.permission).toBe('ask');
    expect(readFileSync(agentFile, 'utf8')).toBe(before);
  });

  it("a scripted build without a script names the library's own script field, not only a scenario's or a CLI flag", async () => {
    const result = await testRun({ agent: agentFile, inputs: { messages: [{ role: 'user', content: 'hi' }] } });
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toContain('SCRIPT_MISSING: provider "scripted" needs a script');
    expect(result.verdict_reason).toContain("the script field of an MCP test_run request or of the library's testRun and invoke");
  });

  it('returns resolved null, as its type says, when the run ended before its agent started (an MCP server that did not start)', async () => {
    const result = await testRun({
      agent: {
        id: 'bad-mcp',
        agent: { name: 'Bad MCP', llm: { provider: 'scripted', model: 's' }, mcps: [{ name: 'bad', command: [process.execPath, '-e', 'process.exit(4)'] }] },
      },
      inputs: { messages: [{ role: 'user', content: 'hi' }] },
      script: [{ text: 'hi' }],
    });
    expect(result).toMatchObject({ verdict: 'failed', stop_reason: 'error', resolved: null });
    expect(result.verdict_reason).toContain('MCP_START_FAILED');
    // docs/mcp.md documents the null: a caller's code must be made to handle it.
    expectTypeOf(result.resolved).toEqualTypeOf<ResolvedConfig | null>();
  });

  it('lists the built-ins a flow offers without the agent listing them, with their permission', async () => {
    const dir = tempDir({ 'n.txt': 'needle' });
    const result = await testRun({
      agent: {
        id: 'ts',
        agent: {
          name: 'TS',
          llm: { provider: 'scripted', model: 's' },
          permissions: { mode: 'allow_reads' },
          tools: [{ name: 'api', description: 'a', returns: 1 }],
        },
        flow: {
          entry_point: 'a',
          components: [
            { name: 'a', type: 'agent', toolset: ['grep', 'write_file'] },
            { name: 'b', type: 'deterministic_step', tool_name: 'list_dir', inputs: [{ literal: '.', as: 'path' }] },
          ],
          routers: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'end' },
          ],
        },
      },
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      workspace: dir,
      script: [{ tool_calls: [{ name: 'grep', args: { pattern: 'needle' } }] }, { text: 'done' }],
    });
    expect(result.resolved?.tools).toEqual([
      { name: 'api', permission: 'ask' },
      { name: 'grep', permission: 'allow' },
      { name: 'write_file', permission: 'ask' },
      { name: 'list_dir', permission: 'allow' },
    ]);
  });

  it("records run_command's gate as commands.allow decides it: ask (an unlisted program asks) with the list beside it, whatever the mode", async () => {
    const commandBuild = (permissions: object, allow?: string[], permission?: string) => ({
      id: 'cmd',
      agent: {
        name: 'C',
        llm: { provider: 'scripted', model: 's' },
        permissions,
        ...(allow ? { commands: { allow } } : {}),
        tools: [{ name: 'run_command', description: 'r', builtin: 'run_command', ...(permission ? { permission } : {}) }],
      },
    });
    const call = (program: string) => [{ tool_calls: [{ name: 'run_command', args: { argv: [program, '.'] }, id: 'c1' }] }, { text: 'done' }];
    const run = (agent: Record<string, unknown>, program: string) =>
      testRun({ agent, inputs: { messages: [{ role: 'user', content: 'go' }] }, workspace: tempDir({ 'a.txt': 'a' }), script: call(program) });

    // Mode ask: ls (listed) runs without approval, and the record gives the list that decides.
    const listed = await run(commandBuild({ mode: 'ask' }, ['ls']), 'ls');
    expect(listed.approvals).toEqual([]);
    expect(listed.resolved?.tools).toEqual([{ name: 'run_command', permission: 'ask' }]);
    expect(listed.resolved?.commands).toEqual({ allow: ['ls'] });
    // Mode allow, yet cat (not listed) pauses, and the record says ask, not the mode's allow.
    const unlisted = await run(commandBuild({ mode: 'allow' }, ['ls']), 'cat');
    expect(unlisted.stop_reason).toBe('paused');
    // A paused run keeps its workspace copy for resumeTestRun: answered, it lets it go.
    await resumeTestRun({ run_id: unlisted.run_id!, decision: 'deny' });
    expect(unlisted.resolved?.tools).toEqual([{ name: 'run_command', permission: 'ask' }]);
    const none = await run(commandBuild({ mode: 'allow' }), 'ls');
    expect(none.stop_reason).toBe('paused');
    await resumeTestRun({ run_id: none.run_id!, decision: 'deny' });
    expect(none.resolved?.tools).toEqual([{ name: 'run_command', permission: 'ask' }]);
    expect(none.resolved?.commands).toEqual({ allow: [] });
    // Mode deny and the tool's own permission decide every call, the list aside.
    const denied = await run(commandBuild({ mode: 'deny' }, ['ls']), 'ls');
    expect(denied.resolved?.tools).toEqual([{ name: 'run_command', permission: 'deny' }]);
    const own = await run(commandBuild({ mode: 'ask' }, ['ls'], 'allow'), 'cat');
    expect(own.approvals).toEqual([]);
    expect(own.resolved?.tools).toEqual([{ name: 'run_command', permission: 'allow' }]);
  });

  it('refuses a skills folder that is not a skill before the run, at its place in the request', async () => {
    const dir = tempDir();
    const run = testRun({
      agent: agentFile,
      inputs: { messages: [{ role: 'user', content: 'h' }] },
      skills: { overlay: [join(dir, 'nope')] },
      script: [{ text: 'x' }],
    });
    await expect(run).rejects.toThrow(/testRun at skills\.overlay\[0\]: .*does not exist/);
  });

  it('names the absolute path of a relative agent file it cannot find, read from process.cwd()', async () => {
    const run = testRun({ agent: 'no-such-dir/agent.yaml', inputs: { messages: [{ role: 'user', content: 'h' }] }, script: [{ text: 'x' }] });
    await expect(run).rejects.toMatchObject({ code: 'CONFIG_NOT_FOUND', message: `${resolve('no-such-dir/agent.yaml')}: file not found` });
  });

  it('refuses request data nested more than 100 levels with a located ConfigError, never a RangeError', async () => {
    const deep = (levels: number): unknown => (levels === 0 ? 1 : { a: deep(levels - 1) });
    const run = testRun({
      agent: agentFile,
      inputs: { messages: [{ role: 'user', content: 'x' }] },
      delta: { set: { agent: { tools: [{ name: 'x', description: 'd', returns: deep(3000) }] } } },
      script: [{ text: 'x' }],
    });
    await expect(run).rejects.toMatchObject({
      code: 'CONFIG_TOO_DEEP',
      message: expect.stringMatching(
        /^testRun at delta\.set\.agent\.tools\[0\]\.returns\.a\.a.*: is nested more than 100 levels deep; agentcheck refuses values beyond that$/,
      ),
    });
  });

  it('refuses an empty or blank message, as the CLI and MCP do', async () => {
    const run = testRun({ agent: agentFile, inputs: { messages: [{ role: 'user', content: '' }] }, script: [{ text: 'x' }] });
    await expect(run).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: 'testRun at inputs.messages[0].content: the message is empty; give the message text',
    });
  });

  it('lists every problem of a request at once: fields, delta paths, mocks, approvals and names', async () => {
    const error = await testRun({
      agent: agentFile,
      inputs: { messages: [{ role: 'user', content: 'x' }] },
      delta: { remove: ['agent.tools[name=nothing]'] },
      mocks: { http: [{ url: 'https://x.test', json: {}, body: 'x' }] },
      expectations: { terminal_tool: 'create_refnd' },
    }).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('testRun at mocks.http[0].body');
    expect((error as Error).message).toContain('testRun delta at remove[0]');
    const names = await testRun({
      agent: agentFile,
      inputs: { messages: [{ role: 'user', content: 'x' }] },
      approvals: { tools: { delete_ordr: 'approve' } },
      expectations: { terminal_tool: 'create_refnd' },
    }).catch((caught: unknown) => caught as Error);
    expect((names as Error).message).toContain('approvals.tools.delete_ordr');
    expect((names as Error).message).toContain('expectations.terminal_tool');
  });

  it('refuses a terminal_tool or a scripted tool call the build does not offer, before anything runs, as the CLI does', async () => {
    const inputs = { messages: [{ role: 'user' as const, content: 'refund 1234' }] };
    await expect(testRun({ agent: agentFile, inputs, expectations: { terminal_tool: 'create_refnd' }, script: refundScript })).rejects.toThrow(
      /^testRun at expectations\.terminal_tool: .*"create_refnd".*did you mean "create_refund"\?/,
    );
    const typo = [{ tool_calls: [{ name: 'lookup_ordr', args: { order_id: '1' } }] }, { text: 'x' }];
    await expect(testRun({ agent: agentFile, inputs, script: typo })).rejects.toThrow(/at script\[0\]\.tool_calls\[0\]\.name: the script calls "lookup_ordr"/);
  });

  it("says a terminal_tool or script call the request's delta took away is gone because of it", async () => {
    const inputs = { messages: [{ role: 'user' as const, content: 'refund 1234' }] };
    const delta = { remove: ['agent.tools[name=create_refund]'] };
    await expect(testRun({ agent: agentFile, inputs, delta, expectations: { terminal_tool: 'create_refund' }, script: refundScript })).rejects.toThrow(
      "(the request's delta removes or renames it: names are held to the build after it)",
    );
  });

  it('refuses a terminal_tool only a chain calls, naming the chain tool the model calls', async () => {
    const dir = tempDir({
      'nt.yaml': 'id: nt\nagent:\n  name: N\n  tools:\n    - {name: ch, description: c, chain: {steps: [{tool: echo, inputs: {text: hi}}]}}\n',
    });
    const inputs = { messages: [{ role: 'user' as const, content: 'go' }] };
    await expect(testRun({ agent: join(dir, 'nt.yaml'), inputs, expectations: { terminal_tool: 'echo' } })).rejects.toThrow(
      /at expectations\.terminal_tool: expectations\.terminal_tool names "echo", which is called only inside a chain or plan; .*; name the chain or plan tool the model calls \(ch\)$/,
    );
  });

  it('refuses load_skill unless the request delivers on demand a skill the model may load, as the run would offer it', async () => {
    const inputs = { messages: [{ role: 'user' as const, content: 'load it' }] };
    const script = [{ tool_calls: [{ name: 'load_skill', args: { name: 'x' } }] }, { text: 'x' }];
    const why = /at script\[0\]\.tool_calls\[0\]\.name: "load_skill" is offered only when skills are delivered on demand/;
    await expect(testRun({ agent: agentFile, inputs, script })).rejects.toThrow(why);
    // On demand without a skill, or with only skills the model may not load: no load_skill is offered.
    await expect(testRun({ agent: agentFile, inputs, script, skills: { delivery: 'on_demand' } })).rejects.toThrow('this run has none (no agent.skills');
    const dir = tempDir({
      'x/SKILL.md': '---\nname: x\ndescription: X.\n---\nX body.\n',
      'release/SKILL.md': '---\nname: release\ndescription: R.\ndisable_model_invocation: true\n---\nR body.\n',
    });
    const disabled = { delivery: 'on_demand' as const, overlay: [join(dir, 'release')] };
    await expect(testRun({ agent: agentFile, inputs, script, skills: disabled })).rejects.toThrow(
      'every skill this run delivers has disable_model_invocation: true (release), so the model may load none',
    );
    // With a skill the model may load, the call is the run's: load_skill answers it.
    const result = await testRun({ agent: agentFile, inputs, script, skills: { delivery: 'on_demand', overlay: [join(dir, 'x')] } });
    expect(result.stop_reason).toBe('end_turn');
    expect(result.tools).toContainEqual({ name: 'load_skill', called: 1, returned: 1, errors: 0 });
  });

  it('says a misspelt skills.delivery alone, without concluding from the default that load_skill is not offered', async () => {
    const inputs = { messages: [{ role: 'user' as const, content: 'load it' }] };
    const script = [{ tool_calls: [{ name: 'load_skill', args: { name: 'x' } }] }, { text: 'x' }];
    const skills = { delivery: 'lazy' } as unknown as { delivery: 'on_demand' };
    const error = await testRun({ agent: agentFile, inputs, script, skills }).catch((caught: unknown) => caught as Error);
    expect((error as Error).message).toBe('testRun at skills.delivery: expected one of "inline" | "on_demand", got string "lazy"');
  });

  it('offers load_skill among the script names to choose from only when the request delivers a loadable skill on demand', async () => {
    const inputs = { messages: [{ role: 'user' as const, content: 'go' }] };
    const script = [{ tool_calls: [{ name: 'fly', args: {} }] }, { text: 'x' }];
    const inline = await testRun({ agent: agentFile, inputs, script }).catch((caught: unknown) => caught as Error);
    expect((inline as Error).message).toMatch(
      /the script calls "fly", which the agent does not offer the model; expected one of: lookup_order, create_refund, delete_order, send_email \(/,
    );
    expect((inline as Error).message).not.toContain('load_skill');
    const dir = tempDir({ 'x/SKILL.md': '---\nname: x\ndescription: X.\n---\nX body.\n' });
    const skills = { delivery: 'on_demand' as const, overlay: [join(dir, 'x')] };
    const onDemand = await testRun({ agent: agentFile, inputs, script, skills }).catch((caught: unknown) => caught as Error);
    expect((onDemand as Error).message).toMatch(/expected one of: lookup_order, create_refund, delete_order, send_email, load_skill \(/);
  });

  it("takes reject as deny for a tool's gate, and refuses any other text there instead of pausing as if unanswered", async () => {
    const inputs = { messages: [{ role: 'user' as const, content: 'delete order 1' }] };
    const script = [{ tool_calls: [{ name: 'delete_order', args: { order_id: '1' } }] }, { text: 'done' }];
    const rejected = await testRun({ agent: agentFile, inputs, script, approvals: { tools: { delete_order: 'reject' } } });
    expect(rejected.stop_reason).toBe('end_turn');
    expect(rejected.approvals).toEqual([{ tool: 'delete_order', decision: 'deny' }]);
    for (const answer of ['yes', 'Approve']) {
      await expect(testRun({ agent: agentFile, inputs, script, approvals: { tools: { delete_order: answer } } })).rejects.toThrow(
        `testRun at approvals.tools.delete_order: a tool's approval gate takes "approve", "deny", "reject"; got ${JSON.stringify(answer)}`,
      );
    }
  });

  it('ends a run its caller aborted during a model call with RUN_ABORTED; the chat span keeps MODEL_ABORTED', async () => {
    const controller = new AbortController();
    const slow = new ScriptedModel([{ text: 'slow', delay_ms: 600_000 }]);
    // The abort comes while the model call waits: deterministic, whatever the machine's speed.
    const model: Model = {
      provider: slow.provider,
      modelId: slow.modelId,
      generate: (request) => {
        setImmediate(() => controller.abort(new Error('the caller stopped it')));
        return slow.generate(request);
      },
    };
    const record = await executeTestRun({
      agent: agentFile,
      inputs: { messages: [{ role: 'user' as const, content: 'hi' }] },
      model,
      signal: controller.signal,
    });
    await record.workspace.dispose();
    expect(record.result.verdict_reason).toBe('the invoke errored (RUN_ABORTED: the run was aborted: the caller stopped it)');
    const root = record.spans.find((span) => span.parent_id === null)!;
    expect(root.attributes['error.type']).toBe('RUN_ABORTED');
    expect(record.spans.find((span) => span.name.startsWith('chat'))?.attributes['error.type']).toBe('MODEL_ABORTED');
  });

  it("says in the verdict what the tool said: a refusal's schema message, an http answer's status and body", async () => {
    const inputs = { messages: [{ role: 'user' as const, content: 'refund 1234' }] };
    const badArgs = await testRun({
      agent: agentFile,
      inputs,
      expectations: { terminal_tool: 'create_refund' },
      mocks: { http: [] },
      script: [{ tool_calls: [{ name: 'create_refund', args: { order_id: '1234', reason: 'bogus' } }] }, { text: 'done' }],
    });
    expect(badArgs.verdict_reason).toMatch(
      /^tool create_refund failed: invalid_arguments \(Invalid arguments for create_refund: reason: expected one of "damaged" \| "late" \| "other", got string "bogus"\.?\)$/,
    );
    for (const answer of [{ body: 'upstream down' }, { json: { error: 'upstream down' } }]) {
      const down = await testRun({
        agent: agentFile,
        inputs,
        expectations: { terminal_tool: 'create_refund' },
        mocks: { http: [{ method: 'POST', url: 'https://shop.test/refunds', status: 500, ...answer }] },
        script: refundScript,
      });
      expect(down.verdict_reason).toBe('tool create_refund failed: http_500 (HTTP 500: upstream down)');
    }
  });

  it('fails the verdict naming a request no mock matched, credentials scrubbed from its URL', async () => {
    const agent = {
      id: 'keyed',
      agent: {
        name: 'K',
        tools: [{ name: 'fetch_page', parameters: { type: 'object' }, http: { method: 'GET', url: 'https://api.test/page?api_key=key-value-123456&page=2' } }],
      },
    };
    const result = await testRun({
      agent,
      inputs: { messages: [{ role: 'user', content: 'fetch' }] },
      expectations: { terminal_tool: 'fetch_page' },
      mocks: { http: [{ url: 'https://api.test/other', json: {} }] },
      script: [{ tool_calls: [{ name: 'fetch_page', args: {} }] }, { text: 'done' }],
    });
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toMatch(
      /^no mock matched GET https:\/\/api\.test\/page\?api_key=\[redacted\]&page=2 \(mocks\.http\); tool fetch_page failed: network/,
    );
    expect(result.verdict_reason).not.toContain('key-value-123456');
  });

  it('fails the verdict on an error token in a result', async () => {
    const result = await testRun({
      agent: agentFile,
      inputs: { messages: [{ role: 'user', content: 'refund 1234' }] },
      expectations: { terminal_tool: 'create_refund' },
      mocks: { http: [{ method: 'POST', url: 'https://shop.test/refunds', json: { ok: false, reason: 'closed' } }] },
      script: refundScript,
    });
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toMatch(/create_refund.*"ok": ?false/);
  });

  it('keeps the mocks of concurrent runs apart', async () => {
    const records = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (id) => {
        const record = await executeTestRun({
          agent: agentFile,
          inputs: { messages: [{ role: 'user', content: id }] },
          expectations: { terminal_tool: 'create_refund' },
          mocks: { http: [{ method: 'POST', url: 'https://shop.test/refunds', json: { ok: true, id }, delay_ms: id === 'a' ? 30 : 0 }] },
          script: refundScript,
        });
        await record.workspace.dispose();
        return { id, record };
      }),
    );
    for (const { id, record } of records) {
      expect(record.result.verdict).toBe('pass');
      const call = record.spans.find((span) => span.name === 'execute_tool create_refund');
      expect(JSON.parse(String(call?.attributes['gen_ai.tool.call.result']))).toEqual({ ok: true, id });
    }
  });

  it('refuses a test_run started from inside a test_run (depth 1)', async () => {
    const nested: Model = {
      provider: 'scripted',
      modelId: 'nesting',
      async generate() {
        await testRun({ agent: agentFile, inputs: { messages: [{ role: 'user', content: 'x' }] }, script: [{ text: 'inner' }] });
        return { text: 'unreachable', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: { input_tokens: 0, output_tokens: 0 } };
      },
    };
    const result = await testRun({ agent: agentFile, inputs: { messages: [{ role: 'user', content: 'x' }] }, model: nested });
    expect(result.stop_reason).toBe('error');
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toContain('RECURSION_GUARD');
  });

  it('refuses a nested testRun or resumeTestRun before reading its request: a missing agent file is not named first', async () => {
    const said: string[] = [];
    const nested: Model = {
      provider: 'scripted',
      modelId: 'nesting',
      async generate() {
        for (const attempt of [
          () => testRun({ agent: 'agents/no-such-build.yaml', inputs: { messages: [{ role: 'user', content: 'x' }] }, script: [{ text: 'inner' }] }),
          () => resumeTestRun({ run_id: 'never-paused', decision: 'approve' }),
        ]) {
          said.push(
            await attempt().then(
              () => 'ran',
              (error: unknown) => (error as Error).message,
            ),
          );
        }
        return { text: 'done', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: { input_tokens: 0, output_tokens: 0 } };
      },
    };
    await testRun({ agent: agentFile, inputs: { messages: [{ role: 'user', content: 'x' }] }, model: nested });
    expect(said).toEqual(Array(2).fill('test_run was called from inside a test_run; runs nest at most one level deep'));
  });
});

describe('scenario mocks', () => {
  it('treats an empty mock list as "no live HTTP": the request is an unmatched error', async () => {
    const dir = tempDir({
      'x.scenario.yaml': `name: empty mocks
agent: ${agentFile}
inputs: {messages: [{role: user, content: refund}]}
mocks: {http: []}
model: {script: [{tool_calls: [{name: create_refund, args: {order_id: "1", reason: late}}]}, {text: done}]}
`,
    });
    const [scenario] = loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() });
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
    expect(row.error).toEqual({ type: 'UNMATCHED_REQUEST', message: 'no mock matched POST https://shop.test/refunds (scenario mocks.http)' });
  });

  it('gives an error row naming the method and URL of an unmatched request', async () => {
    const dir = tempDir({
      'x.scenario.yaml': `name: unmatched
agent: ${agentFile}
inputs: {messages: [{role: user, content: refund}]}
mocks: {http: [{method: GET, url: "https://shop.test/other", json: {}}]}
model: {script: [{tool_calls: [{name: create_refund, args: {order_id: "1", reason: late}}]}, {text: done}]}
expect: {terminal_tool: create_refund}
`,
    });
    const [scenario] = loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() });
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
    expect(row.status).toBe('error');
    expect(row.error).toEqual({ type: 'UNMATCHED_REQUEST', message: 'no mock matched POST https://shop.test/refunds (scenario mocks.http)' });
  });
});

describe('testRun with exactly the keys of docs/mcp.md, test_run', () => {
  it('runs offline against a mocked provider endpoint without an API key in the environment', async () => {
    const completion = (message: Record<string, unknown>) => ({
      id: 'c',
      object: 'chat.completion',
      model: 'gpt-4.1-mini',
      choices: [{ index: 0, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', message: { role: 'assistant', content: null, ...message } }],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    });
    const agent = revisionFromValue({
      id: 'support-bot',
      agent: {
        name: 'Support bot',
        llm: { provider: 'openai', model: 'gpt-4.1-mini' },
        tools: [{ name: 'create_refund', description: 'Refund.', parameters: { type: 'object' }, http: { method: 'POST', url: 'https://shop.test/refunds' } }],
      },
    });
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const result = await testRun({
        agent,
        inputs: { messages: [{ role: 'user', content: 'Refund order 1234.' }] },
        delta: { set: { agent: { max_turns: 4 } } },
        expectations: { terminal_tool: 'create_refund' },
        approvals: { default: 'approve' },
        mocks: {
          http: [
            // The mocked model always asks for the refund; the run ends at max_turns with the terminal tool returned.
            { method: 'POST', url: 'https://shop.test/refunds', json: { ok: true, id: 'r1' } },
            {
              method: 'POST',
              url: 'https://api.openai.com/v1/chat/completions',
              json: completion({ tool_calls: [{ id: 't1', type: 'function', function: { name: 'create_refund', arguments: '{}' } }] }),
            },
          ],
        },
      });
      expect(result.tools).toEqual([{ name: 'create_refund', called: expect.any(Number), returned: expect.any(Number), errors: 0 }]);
      expect(result.resolved).toMatchObject({ provider: 'openai', max_turns: 4 });
      expect(result.verdict).toBe('pass');
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
