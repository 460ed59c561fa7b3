import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { runMainFull } from '../helpers/run-main-full.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { call, connectAgentcheck } from '../runner/mcp/mcp-client.js';
import { ROOT, runCli } from './cli.js';
import { AGENT, BOTH, pauseWithCli, project, runRequest, SERVER } from './resume-nothing-ran-fixture.js';

/** The fields of a test_run or resume_run result these tests read. */
interface Turn {
  run_id: string;
  trace_id: string;
  stop_reason: string;
  verdict: string;
  tools: unknown;
  approvals: unknown;
}
const turn = (result: CallToolResult) => result.structuredContent as unknown as Turn;

describe('a resume that ends with an error before anything ran', () => {
  it('keeps the paused run (agentcheck resume): the gated call never ran, and the answer can be given again', async () => {
    const dir = project();
    const paused = await pauseWithCli(dir);
    // The server no longer offers del_item: the resumed run's approvals are refused at its start.
    writeFileSync(join(dir, 'tools.txt'), 'put_item\n');
    const refused = await runCli(['resume', paused.run_id, '--decision', 'approve', '--json'], dir);
    expect(refused.exitCode).toBe(1);
    // The run is still the paused one: its run_id still answers, and its calls and gates are as the pause left them.
    expect(JSON.parse(refused.stdout)).toMatchObject({ stop_reason: 'error', run_id: paused.run_id, tools: paused.tools, approvals: paused.approvals });
    expect(readdirSync(join(dir, 'reports/runs'))).toContain(`${paused.run_id}.checkpoint.json`);
    // The readable result names the run_id to answer again, with the command that does it.
    const readable = await runCli(['resume', paused.run_id, '--decision', 'approve'], dir);
    expect(readable.exitCode).toBe(1);
    expect(readable.stdout).toContain(`still paused: run ${paused.run_id} (`);
    expect(readable.stdout).toContain(`answer it again with agentcheck resume ${paused.run_id} --decision approve|deny`);
    // Fixed, the same answer continues the run: put_item runs, finish completes it.
    writeFileSync(join(dir, 'tools.txt'), BOTH);
    const resumed = await runCli(['resume', paused.run_id, '--decision', 'approve', '--json'], dir);
    expect(resumed.exitCode, resumed.all).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn' });
  });

  // A run whose script calls put_item then take_item: refused while take_item is gone, then
  // resumed to its next pause, which the next test's resume cannot put back. In-process
  // (runMainFull): which tools the rest of the script may call is the resume's logic; the built CLI
  // pauses, keeps a refused resume and resumes to a pass in the test above, and resumes to a
  // second pause in the whole-run test below.
  const scriptChecked = shared(async (dir) => {
    const cwd = dir({
      'agent.yaml': AGENT,
      'kv.mjs': SERVER,
      'tools.txt': 'put_item\ntake_item\n',
      'script.yaml': [
        { tool_calls: [{ name: 'mcp__kv__put_item', args: {} }] },
        { tool_calls: [{ name: 'mcp__kv__take_item', args: {} }] },
        { tool_calls: [{ name: 'finish', args: {} }] },
        { text: 'done' },
      ]
        .map((entry) => `- ${JSON.stringify(entry)}`)
        .join('\n'),
    });
    const paused = JSON.parse(
      (await runMainFull(['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--terminal-tool', 'finish', '--json'], cwd))
        .stdout,
    );
    writeFileSync(join(cwd, 'tools.txt'), 'put_item\n');
    const refused = await runMainFull(['resume', paused.run_id, '--decision', 'approve', '--json'], cwd);
    const kept = readdirSync(join(cwd, 'reports/runs'));
    writeFileSync(join(cwd, 'tools.txt'), 'put_item\ntake_item\n');
    const resumed = JSON.parse((await runMainFull(['resume', paused.run_id, '--decision', 'approve', '--json'], cwd)).stdout);
    return { cwd, paused, refused, kept, resumed };
  });

  it('holds the rest of the script to what the server lists when the run resumes, keeping the run when a tool is gone', async () => {
    const { paused, refused, kept, resumed } = await scriptChecked();
    expect(paused.stop_reason).toBe('paused');
    expect(refused.exitCode).toBe(1);
    const result = JSON.parse(refused.stdout);
    expect(result).toMatchObject({ stop_reason: 'error', run_id: paused.run_id, tools: paused.tools, approvals: paused.approvals });
    expect(result.verdict_reason).toContain('at script[1].tool_calls[0].name: the script calls "mcp__kv__take_item", which the agent does not offer the model');
    expect(kept).toContain(`${paused.run_id}.checkpoint.json`);
    // Restored, the answer continues the run: put_item runs, and take_item's gate pauses it again.
    expect(resumed.stop_reason).toBe('paused');
    expect(resumed.tools).toContainEqual(expect.objectContaining({ name: 'put_item', called: 1 }));
  });

  it('offers no run_id when the checkpoint cannot be put back, and says so', async () => {
    // The run paused again by the test above.
    const { cwd: dir, resumed: paused } = await scriptChecked();
    expect(paused.stop_reason).toBe('paused');
    // The server, started by the resume, puts a folder where the claimed checkpoint goes back, and does not start.
    writeFileSync(
      join(dir, 'kv.mjs'),
      `import { mkdirSync, readdirSync } from 'node:fs';
const runs = new URL('./reports/runs/', import.meta.url);
for (const name of readdirSync(runs)) {
  const claimed = /^(.+\\.checkpoint\\.json)\\.\\d+\\.answering$/.exec(name);
  if (claimed) mkdirSync(new URL(claimed[1], runs));
}
process.exit(3);
`,
    );
    const refused = await runCli(['resume', paused.run_id, '--decision', 'approve', '--json'], dir);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`could not put the checkpoint back at ${join(dir, 'reports/runs', `${paused.run_id}.checkpoint.json`)}`);
    const result = JSON.parse(refused.stdout);
    expect(result.verdict_reason).toContain('MCP_START_FAILED');
    expect(result.run_id).toBeUndefined();
  });

  it('describes the whole run: the decisions answered before it and every call, the one it waits at included', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'kv.mjs': SERVER,
      'tools.txt': 'put_item\n',
      'script.yaml': [
        { tool_calls: [{ name: 'finish', args: {} }] },
        { tool_calls: [{ name: 'mcp__kv__put_item', args: {} }] },
        { tool_calls: [{ name: 'mcp__kv__put_item', args: {} }] },
        { text: 'done' },
      ]
        .map((entry) => `- ${JSON.stringify(entry)}`)
        .join('\n'),
    });
    // The pause, the kept resume and the deny that completes the run in-process (runMainFull): what
    // the result describes is the resume's logic; the built CLI resumes to the second pause here,
    // and pauses, keeps a run and completes one in the first test.
    const first = JSON.parse(
      (await runMainFull(['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--terminal-tool', 'finish', '--json'], dir))
        .stdout,
    );
    expect(first.stop_reason).toBe('paused');
    // Approved, the first put_item runs and the second one's gate pauses the run again.
    const second = JSON.parse((await runCli(['resume', first.run_id, '--decision', 'approve', '--json'], dir)).stdout);
    expect(second).toMatchObject({
      stop_reason: 'paused',
      approvals: [
        { tool: 'put_item', decision: 'approve' },
        { tool: 'put_item', decision: 'pending' },
      ],
    });
    writeFileSync(join(dir, 'tools.txt'), 'other\n');
    const refused = await runMainFull(['resume', second.run_id, '--decision', 'deny', '--json'], dir);
    expect(refused.exitCode).toBe(1);
    const kept = JSON.parse(refused.stdout);
    expect(kept.stop_reason).toBe('error');
    expect(kept.run_id).toBe(second.run_id);
    expect(kept.approvals).toEqual(second.approvals);
    expect(kept.tools).toEqual([
      { name: 'finish', called: 1, returned: 1, errors: 0 },
      // Both calls are the kv server's (the digest counts an MCP tool's calls by server).
      { name: 'put_item', called: 2, returned: 1, errors: 0, servers: { kv: 2 } },
    ]);
    writeFileSync(join(dir, 'tools.txt'), 'put_item\n');
    const denied = await runMainFull(['resume', second.run_id, '--decision', 'deny', '--json'], dir);
    expect(denied.exitCode, denied.all).toBe(0);
    expect(JSON.parse(denied.stdout)).toMatchObject({
      approvals: [
        { tool: 'put_item', decision: 'approve' },
        { tool: 'put_item', decision: 'deny' },
      ],
      tools: [
        { name: 'finish', called: 1 },
        { name: 'put_item', called: 2, returned: 1 },
      ],
    });
  });

  /**
   * One `agentcheck mcp` session: a test_run paused at put_item, a resume_run kept paused (del_item
   * gone from the server), the kept run's trace queried, then the same answer resumed to a pass and
   * its trace queried: read by the resume_run test and the query_spans test.
   */
  const mcpSession = shared(async (dir) => {
    const cwd = project(dir);
    const client = await connectAgentcheck(cwd);
    try {
      const paused = turn(await call(client, 'test_run', runRequest(cwd)));
      writeFileSync(join(cwd, 'tools.txt'), 'put_item\n');
      const kept = turn(await call(client, 'resume_run', { run_id: paused.run_id, decision: 'approve' }));
      const keptSpans = await call(client, 'query_spans', { trace_id: kept.trace_id });
      writeFileSync(join(cwd, 'tools.txt'), BOTH);
      const resumed = turn(await call(client, 'resume_run', { run_id: paused.run_id, decision: 'approve' }));
      const resumedSpans = await call(client, 'query_spans', { trace_id: resumed.trace_id });
      return { cwd, paused, kept, keptSpans, resumed, resumedSpans };
    } finally {
      await client.close();
    }
  });

  it('keeps the paused run for MCP resume_run and the library resumeTestRun', async () => {
    const { cwd: dir, paused: mcpPaused, kept, resumed } = await mcpSession();
    expect(mcpPaused.stop_reason).toBe('paused');
    expect(kept).toMatchObject({ stop_reason: 'error', run_id: mcpPaused.run_id, tools: mcpPaused.tools, approvals: mcpPaused.approvals });
    expect(resumed).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn' });
    const request = runRequest(dir);
    writeFileSync(join(dir, 'tools.txt'), BOTH);
    const { testRun, resumeTestRun } = await import(join(ROOT, 'dist/src/index.js'));
    const paused = await testRun(request);
    expect(paused.stop_reason).toBe('paused');
    writeFileSync(join(dir, 'tools.txt'), 'put_item\n');
    expect(await resumeTestRun({ run_id: paused.run_id, decision: 'approve' })).toMatchObject({
      stop_reason: 'error',
      run_id: paused.run_id,
      tools: paused.tools,
      approvals: paused.approvals,
    });
    writeFileSync(join(dir, 'tools.txt'), BOTH);
    expect(await resumeTestRun({ run_id: paused.run_id, decision: 'approve' })).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn' });
  });

  it("puts a kept resume_run's spans in the query_spans history, under the trace_id its result gives", async () => {
    const { paused, kept, keptSpans: queried, resumed, resumedSpans } = await mcpSession();
    expect(paused.stop_reason).toBe('paused');
    expect(kept).toMatchObject({ stop_reason: 'error', run_id: paused.run_id });
    // Its trace holds the resumed run's root span, which says the run ended with an error.
    expect(queried.isError, JSON.stringify(queried.content)).toBeFalsy();
    const { spans } = queried.structuredContent as { spans: Array<{ trace_id: string; name: string; status: string; attributes: Record<string, unknown> }> };
    expect(spans.every((span) => span.trace_id === kept.trace_id)).toBe(true);
    expect(spans).toContainEqual(
      expect.objectContaining({
        name: 'invoke_agent RS bot',
        status: 'error',
        attributes: expect.objectContaining({ 'agentcheck.resume.checkpoint_id': expect.stringContaining(paused.run_id) }),
      }),
    );
    // The run stays paused: answered again, it continues, and its own trace is queryable too.
    expect(resumed.verdict).toBe('pass');
    expect(resumedSpans.isError, JSON.stringify(resumedSpans.content)).toBeFalsy();
    const resumedTrace = (resumedSpans.structuredContent as { spans: Array<{ trace_id: string; name: string }> }).spans;
    expect(resumedTrace.map((span) => span.name)).toContain('invoke_agent RS bot');
    expect(resumedTrace.every((span) => span.trace_id === resumed.trace_id)).toBe(true);
  });
});
