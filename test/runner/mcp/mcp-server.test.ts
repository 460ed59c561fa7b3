import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUB_SERVER } from '../../engine/mcp/mcp-helpers.js';
import { isRunning, waitForPidFile } from '../../helpers/process-state.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { call, connectAgentcheck, rawAgentcheck, REFUND_REQUEST as refund, text } from './mcp-client.js';

describe('agentcheck mcp over stdio (the built CLI, the SDK client)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists test_run, resume_run, query_spans and validate with exact, documented schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['test_run', 'resume_run', 'query_spans', 'validate']);
    const [testRun, resumeRun, querySpans, validate] = tools;
    expect(resumeRun.inputSchema).toMatchObject({ required: ['run_id', 'decision'], additionalProperties: false });
    expect(testRun.inputSchema).toMatchObject({ type: 'object', required: ['agent', 'inputs'], additionalProperties: false });
    expect(Object.keys(testRun.inputSchema.properties ?? {})).toEqual([
      'agent',
      'inputs',
      'delta',
      'expectations',
      'approvals',
      'script',
      'mocks',
      'workspace',
      'timeout_ms',
    ]);
    for (const [name, property] of Object.entries(testRun.inputSchema.properties ?? {})) {
      expect((property as { description?: string }).description, name).toBeTruthy();
    }
    expect(testRun.outputSchema?.properties).toMatchObject({ verdict: { enum: ['pass', 'incomplete', 'unconfirmed', 'failed'] } });
    expect(testRun.description).toContain('verdict');
    expect(Object.keys(querySpans.inputSchema.properties ?? {})).toEqual(['trace_id', 'file', 'filtering', 'windowing']);
    expect(validate.inputSchema).toMatchObject({ required: ['paths'], additionalProperties: false });
    expect(validate.outputSchema?.properties).toHaveProperty('problems');
  });

  it('runs test_run on support-bot with a script and returns the TestRunResult as structured content and text', async () => {
    const result = await call(client, 'test_run', refund);
    expect(result.isError, text(result)).toBeFalsy();
    const structured = result.structuredContent as Record<string, unknown>;
    expect(structured).toMatchObject({
      verdict: 'pass',
      stop_reason: 'end_turn',
      output: 'Refund created.',
      tools: [
        { name: 'lookup_order', called: 1, returned: 1, errors: 0 },
        { name: 'create_refund', called: 1, returned: 1, errors: 0 },
      ],
      resolved: { revision_id: 'support-bot', provider: 'scripted' },
    });
    expect(structured.verdict_reason).toContain('create_refund');
    expect(JSON.parse(text(result))).toEqual(structured);

    // A request no mock answers fails the verdict, named as a scenario names it.
    const unmatched = await call(client, 'test_run', { ...refund, mocks: { http: [{ method: 'POST', url: 'https://shop.test/other', json: {} }] } });
    expect(unmatched.structuredContent).toMatchObject({ verdict: 'failed' });
    expect((unmatched.structuredContent as { verdict_reason: string }).verdict_reason).toMatch(
      /^no mock matched POST https:\/\/shop\.test\/refunds \(mocks\.http\); /,
    );

    // query_spans over this server's runs, by trace.
    const spans = await call(client, 'query_spans', {
      trace_id: structured.trace_id,
      filtering: { field: 'name', operator: 'startswith', value: 'execute_tool' },
    });
    expect(spans.isError, text(spans)).toBeFalsy();
    const found = spans.structuredContent as { count: number; spans: Array<{ name: string; attributes: Record<string, unknown> }> };
    expect(found.count).toBe(2);
    expect(found.spans.map((span) => span.name)).toEqual(['execute_tool lookup_order', 'execute_tool create_refund']);
    expect(found.spans[1].attributes['agentcheck.tool.outcome']).toBe('ok');

    // A quoted number orders as the number does, as in the CLI and the library.
    const laterTurns = async (value: number | string) =>
      (
        (
          await call(client, 'query_spans', {
            trace_id: structured.trace_id,
            filtering: { field: 'attributes', key: 'agentcheck.turn', operator: 'gt', value },
          })
        ).structuredContent as { count: number }
      ).count;
    expect(await laterTurns('0')).toBe(await laterTurns(0));
    expect(await laterTurns('0')).toBeGreaterThan(0);

    // The same query on a spans.jsonl file, windowed.
    const file = join(tempDir(), 'spans.jsonl');
    writeFileSync(file, found.spans.map((span) => JSON.stringify(span)).join('\n'));
    const fromFile = await call(client, 'query_spans', { file, windowing: { limit: 1, order: 'desc' } });
    expect(fromFile.structuredContent).toMatchObject({ count: 2, spans: [{ name: 'execute_tool create_refund' }] });
    // A trace the file does not hold, or a cut id, is refused as the CLI's --trace is, not read as a run with no calls.
    for (const traceId of ['deadbeef', String(structured.trace_id).slice(0, 10)]) {
      const unknownInFile = await call(client, 'query_spans', { file, trace_id: traceId });
      expect(unknownInFile.isError, text(unknownInFile)).toBe(true);
      expect(text(unknownInFile)).toBe(
        `invalid input: ${file}: UNKNOWN_TRACE: no trace ${traceId} here (the file holds 1 trace(s)); give a trace_id a run printed, whole`,
      );
    }
    const wholeId = await call(client, 'query_spans', { file, trace_id: structured.trace_id });
    expect(wholeId.structuredContent).toMatchObject({ count: 2 });
  });

  it('returns a run whose MCP server never started as a failed result (resolved null), not a tool error', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: bad-mcp\nagent:\n  name: Bad MCP\n  llm: {provider: scripted, model: s}\n  mcps:\n    - {name: bad, command: [sh, -c, "exit 4"]}\n',
    });
    const result = await call(client, 'test_run', {
      agent: join(dir, 'agent.yaml'),
      inputs: { messages: [{ role: 'user', content: 'hi' }] },
      script: [{ text: 'hi' }],
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ verdict: 'failed', stop_reason: 'error', resolved: null });
    expect((result.structuredContent as { verdict_reason: string }).verdict_reason).toContain('MCP_START_FAILED');
  });

  it('keeps serving when a client cancels a test_run of a build with MCP servers at once (their starts cut short)', async () => {
    const dir = tempDir({
      'agent.yaml': `id: mcp-bot\nagent:\n  name: MCP bot\n  llm: {provider: scripted, model: s}\n  mcps:\n    - {name: stub, command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(STUB_SERVER)}]}\n`,
    });
    const server = await rawAgentcheck(dir);
    let closed: { exitCode?: number; stderr: string } | undefined;
    try {
      const request = { agent: 'agent.yaml', inputs: { messages: [{ role: 'user', content: 'x' }] }, script: [{ text: 'a' }] };
      // A first run loads what a run needs, so the cancelled one may get as far as starting its
      // servers (whether it does is a race; aborted-start.test.ts holds the cause deterministically).
      const first = await server.callTool('test_run', JSON.stringify(request));
      expect(first.result?.structuredContent?.verdict, JSON.stringify(first)).toBe('unconfirmed');
      server.cancelledCall('test_run', JSON.stringify(request));
      // Still serving: a later call is answered (the cut-short starts' rejection once ended the process).
      const after = await server.callTool('validate', JSON.stringify({ paths: ['agent.yaml'] }));
      expect(after.result?.isError, JSON.stringify(after)).toBeFalsy();
    } finally {
      closed = await server.close();
    }
    expect(closed.stderr).not.toContain('stopped before it finished');
    expect(closed.exitCode, closed.stderr).toBe(0);
  });

  it('returns bad arguments as tool errors that say what to fix', async () => {
    const schema = await call(client, 'test_run', { ...refund, inputs: { messages: [{ role: 'bot', content: 'x' }] }, extra: 1 });
    expect(schema.isError).toBe(true);
    expect(text(schema)).toContain('expected one of "user" | "assistant", got string "bot" at inputs.messages[0].role');
    expect(text(schema)).toContain('Unrecognized key(s) in object: "extra"');

    const inline = await call(client, 'test_run', { ...refund, agent: { id: 'x', agent: { name: 'X', max_turns: 0 } } });
    expect(inline).toMatchObject({ isError: true });
    expect(text(inline)).toBe('invalid input: arguments.agent at agent.max_turns: expected a number >= 1, got number 0');

    const delta = await call(client, 'test_run', { ...refund, delta: { remove: ['agent.tools[name=nope]'] } });
    expect(text(delta)).toMatch(/^invalid input: arguments\.delta.*nope/);

    const dir = tempDir({ 'agent.yaml': 'id: broken\nagent:\n  name: B\n  max_turns: -1\n' });
    const file = await call(client, 'test_run', { ...refund, agent: join(dir, 'agent.yaml') });
    expect(text(file)).toMatch(/^invalid input: .*agent\.yaml:4:14 at agent\.max_turns: expected a number >= 1/);
    expect(text(await call(client, 'test_run', { ...refund, agent: 'missing.yaml' }))).toMatch(/missing\.yaml: file not found/);

    // The rules of a scenario's mocks and approvals that the input schema cannot say.
    const bothBodies = await call(client, 'test_run', { ...refund, mocks: { http: [{ url: 'https://shop.test/refunds', json: {}, body: 'x' }] } });
    expect(text(bothBodies)).toBe('invalid input: arguments at mocks.http[0].body: an answer has "json" or "body" (text), not both');
    const matcher = await call(client, 'test_run', {
      ...refund,
      mocks: { http: [{ url: 'https://shop.test/refunds', match: { json: { a: { $regexx: 1 } } } }] },
    });
    expect(text(matcher)).toMatch(/^invalid input: arguments at mocks\.http\[0\]\.match\.json\.a\.\$regexx: unknown matcher "\$regexx"/);
    const approvals = await call(client, 'test_run', { ...refund, approvals: { tools: { delete_ordr: 'deny' } } });
    expect(text(approvals)).toMatch(
      /^invalid input: arguments at approvals\.tools\.delete_ordr: "delete_ordr" names no tool of the agent; .*did you mean "delete_order"\?/,
    );

    // The names the CLI's test-run refuses before running: a typo is an error, not a misleading verdict.
    const terminal = await call(client, 'test_run', { ...refund, expectations: { terminal_tool: 'create_refnd' } });
    expect(text(terminal)).toMatch(
      /^invalid input: arguments at expectations\.terminal_tool: expectations\.terminal_tool names no tool of the agent: "create_refnd"; .*did you mean "create_refund"\?/,
    );
    const unsafe = await call(client, 'test_run', { ...refund, expectations: { terminal_tool: '/(a+)+$/' } });
    expect(text(unsafe)).toMatch(/^invalid input: arguments at expectations\.terminal_tool: regular expression \/\(a\+\)\+\$\/ has a nested quantifier/);
    const scripted = await call(client, 'test_run', { ...refund, script: [{ tool_calls: [{ name: 'lookup_ordr', args: { order_id: '1' } }] }, { text: 'x' }] });
    expect(text(scripted)).toMatch(
      /^invalid input: arguments at script\[0\]\.tool_calls\[0\]\.name: the script calls "lookup_ordr", .*did you mean "lookup_order"\?/,
    );

    // Every argument's problems in one answer, as the CLI lists them.
    const many = await call(client, 'test_run', {
      ...refund,
      delta: { remove: ['agent.tools[name=nothing]', 'agent.tools.99'] },
      mocks: { http: [{ url: 'https://x.test', json: {}, body: 'x' }] },
      approvals: { tools: { delete_ordr: 'approve' } },
    });
    expect(text(many)).toMatch(/arguments\.delta at remove\[0\][\s\S]*arguments\.delta at remove\[1\]/);
    expect(text(many)).toContain('arguments at mocks.http[0].body');
    const folder = await call(client, 'test_run', { ...refund, workspace: 'package.json', mocks: { http: [{ url: 'https://x.test', json: {}, body: 'x' }] } });
    expect(text(folder)).toMatch(/arguments at workspace: workspace must be a folder, but .*package\.json is a file/);
    expect(text(folder)).toContain('arguments at mocks.http[0].body');
    // A named pipe in the workspace folder is the argument's problem too, as the CLI's --workspace says.
    const withPipe = tempDir({ 'ws/a.txt': 'a\n' });
    execFileSync('mkfifo', [join(withPipe, 'ws/pipe')]);
    const piped = await call(client, 'test_run', { ...refund, workspace: join(withPipe, 'ws') });
    expect(text(piped)).toBe(
      `invalid input: arguments at workspace: workspace could not be copied: ${join(withPipe, 'ws/pipe')}: it is a named pipe (FIFO), which cannot be copied; expected a folder of regular files, folders and symbolic links`,
    );
    const named = await call(client, 'test_run', {
      ...refund,
      approvals: { tools: { delete_ordr: 'approve' } },
      expectations: { terminal_tool: 'create_refnd' },
      script: [{ tool_calls: [{ name: 'lookup_ordr', args: {} }] }],
    });
    for (const where of ['approvals.tools.delete_ordr', 'expectations.terminal_tool', 'script[0].tool_calls[0].name']) expect(text(named)).toContain(where);

    // The script rules testRun and the CLI's --script apply, in the same words: nothing runs.
    const scripts: Array<[unknown[], string]> = [
      [[], 'invalid input: arguments at script: a script needs at least one entry, one per model call (text, tool_calls or error)'],
      [[{}], 'invalid input: arguments at script[0]: an entry needs text, tool_calls or error: what the model answers on that call'],
      [[{ text: 'x' }, { delay_ms: 1 }], 'invalid input: arguments at script[1]: an entry needs text, tool_calls or error'],
      [
        [{ tool_calls: [{ name: 'lookup_order', args: { order_id: '1' } }], text: 'hi', error: { message: 'boom' } }, { text: 'x' }],
        'invalid input: arguments at script[0].error: an entry is either an answer (text and/or tool_calls) or an error, not both',
      ],
      [
        [{ tool_calls: [] }],
        'invalid input: arguments at script[0].tool_calls: an entry needs text, tool_calls or error: an empty tool_calls list answers nothing',
      ],
      [
        [
          {
            tool_calls: [
              { name: 'lookup_order', args: { order_id: '1' }, id: 'a' },
              { name: 'lookup_order', args: { order_id: '2' }, id: 'a' },
            ],
          },
          { text: 'x' },
        ],
        'invalid input: arguments at script[0].tool_calls[1].id: duplicate tool call id "a" (also tool_calls[0])',
      ],
    ];
    for (const [script, message] of scripts) {
      const refused = await call(client, 'test_run', { ...refund, script });
      expect(refused.isError, text(refused)).toBe(true);
      expect(text(refused)).toContain(message);
    }

    const query = await call(client, 'query_spans', { filtering: { field: 'duration_ms', operator: 'gt', value: 'slow' } });
    expect(query.isError).toBe(true);
    expect(text(query)).toMatch(/arguments at filtering\.value: /);
    const misspelt = await call(client, 'query_spans', { filtering: { field: 'attributes', key: 'agentcheck.tool.refsed', operator: 'exists' } });
    expect(misspelt.isError).toBe(true);
    expect(text(misspelt)).toContain('did you mean "agentcheck.tool.refused"');
    const unknown = await call(client, 'query_spans', { trace_id: 'f'.repeat(32) });
    expect(text(unknown)).toMatch(/^UNKNOWN_TRACE: no run with trace_id f+ .*give "file"/);
  });

  it('validates files and reports a broken one with its line and column', async () => {
    const dir = tempDir({
      'good.yaml': 'id: good\nagent:\n  name: G\n',
      'broken.yaml': 'id: broken\nagent:\n  name: B\n  mcps:\n    - {name: fs, command: []}\n',
    });
    const result = await call(client, 'validate', { paths: [dir] });
    expect(result.isError, text(result)).toBeFalsy();
    const report = result.structuredContent as { ok: boolean; problems: Array<Record<string, unknown>> };
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.objectContaining({
        file: join(dir, 'broken.yaml'),
        line: 5,
        path: 'agent.mcps[0].command',
        message: expect.stringMatching(/broken\.yaml:5:\d+ at agent\.mcps\[0\]\.command: /),
      }),
    ]);
    const ok = await call(client, 'validate', { paths: ['fixtures/agents'] });
    expect(ok.structuredContent).toMatchObject({ ok: true, problems: [] });
    const missing = await call(client, 'validate', { paths: ['no/such/folder'] });
    expect(missing.structuredContent).toMatchObject({ ok: false, problems: [{ file: 'no/such/folder', message: 'no/such/folder: path not found' }] });
  });

  it('stops a test_run and kills its commands when the client disconnects', async () => {
    const marks = tempDir({});
    const pidFile = join(marks, 'pid.txt');
    const agent = join(marks, 'agent.yaml');
    writeFileSync(
      agent,
      'id: sleeper\nagent:\n  name: Sleeper\n  llm: {provider: scripted, model: s}\n  tools:\n    - {name: run_command, builtin: run_command, permission: allow}\n',
    );
    // A client of its own: the file's client stays connected for the tests beside this one.
    const own = await connectAgentcheck();
    const pending = call(own, 'test_run', {
      agent,
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      script: [
        {
          tool_calls: [
            {
              name: 'run_command',
              // A shell, which starts for a fraction of a node process's CPU: it writes its pid and becomes the sleep.
              args: { argv: ['sh', '-c', `printf %s $$ > '${pidFile}' && exec sleep 600`] },
            },
          ],
        },
        { text: 'done' },
      ],
    }).catch(() => undefined);
    const pid = await waitForPidFile(pidFile);
    await own.close();
    await pending;
    // The server aborts the run; its command goes with it (polled: the kill follows the disconnect).
    while (isRunning(pid)) await new Promise((done) => setTimeout(done, 100));
  }, 90_000);
});
