import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { invoke } from '../../src/engine/invoke.js';
import { resume } from '../../src/engine/resume.js';
import { loadAgentBuild } from '../../src/engine/revision/load-build.js';
import { testRun, type TestRunRequest } from '../../src/runner/test-run.js';
import { runCli } from '../e2e/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { call, connectAgentcheck, REFUND_REQUEST, text } from './mcp/mcp-client.js';

const ROOT = join(import.meta.dirname, '../..');

/**
 * A bad default, an unknown key, a misspelt tool with a bad answer, a bad answer and four tools
 * whose names hold a dot, a bracket, a single quote or a backquote: nine problems of one approvals
 * (the misspelt tool's answer is told too: no gate of this build takes it).
 */
const APPROVALS = {
  default: 'maybe',
  tools: { delet_order: 'nah', lookup_order: 'maybe', 'x.y': 'approve', 'a[0]': 'approve', "q'uote": 'approve', 'b`t': 'approve' },
  extra: 1,
};

const TOOL_NAMES = 'lookup_order, create_refund, delete_order, send_email';

/** Each problem: its path inside approvals and what test-run --approvals says of it. */
const PROBLEMS: Array<[path: string, message: string]> = [
  ['default', 'expected one of "approve" | "deny", got string "maybe"'],
  ['tools.delet_order', `"delet_order" names no tool of the agent; expected one of: ${TOOL_NAMES}; did you mean "delete_order"?`],
  ['tools.delet_order', 'a tool\'s approval gate takes "approve", "deny", "reject"; got "nah"'],
  ['tools.lookup_order', 'a tool\'s approval gate takes "approve", "deny", "reject"; got "maybe"'],
  // A key holding a dot, a bracket or a quote is quoted in brackets: written out it would read as another path.
  ['tools["x.y"]', `"x.y" names no tool of the agent; expected one of: ${TOOL_NAMES}`],
  ['tools["a[0]"]', `"a[0]" names no tool of the agent; expected one of: ${TOOL_NAMES}`],
  ['tools["q\'uote"]', `"q'uote" names no tool of the agent; expected one of: ${TOOL_NAMES}`],
  ['tools["b`t"]', `"b\`t" names no tool of the agent; expected one of: ${TOOL_NAMES}`],
  ['extra', 'unknown key "extra"; expected one of: default, tools'],
];

describe('every problem of a request’s approvals, at once, in the words of test-run --approvals', () => {
  it('test-run --approvals FILE (the reference)', async () => {
    const dir = tempDir({ 'approvals.json': JSON.stringify(APPROVALS), 'script.json': JSON.stringify(REFUND_REQUEST.script) });
    const result = await runCli(
      ['test-run', '--agent', join(ROOT, REFUND_REQUEST.agent), '--message', 'refund', '--script', 'script.json', '--approvals', 'approvals.json'],
      dir,
    );
    expect(result.exitCode).toBe(2);
    for (const [path, message] of PROBLEMS) expect(result.stderr).toMatch(new RegExp(`approvals\\.json:\\d+:\\d+ at ${escape(path)}: ${escape(message)}`));
  });

  it("the library's testRun", async () => {
    const request = { ...REFUND_REQUEST, agent: join(ROOT, REFUND_REQUEST.agent), approvals: APPROVALS } as unknown as TestRunRequest;
    const error = await testRun(request).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    const lines = (error as Error).message.split('\n');
    expect(lines).toHaveLength(PROBLEMS.length);
    for (const [path, message] of PROBLEMS) expect(lines).toContain(`testRun at approvals.${path}: ${message}`);
  });

  it("the library's invoke and resume, held to the one build they run", async () => {
    const revision = loadAgentBuild(join(ROOT, REFUND_REQUEST.agent));
    const refused = async (caller: 'invoke' | 'resume', approvals: unknown): Promise<string[]> => {
      const options = { script: [{ text: 'x' }], approvals: approvals as never };
      const run = caller === 'invoke' ? invoke(revision, REFUND_REQUEST.inputs as never, options) : resume(revision, {} as never, undefined, options);
      const error = await run.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message.split('\n');
    };
    for (const caller of ['invoke', 'resume'] as const) {
      const lines = await refused(caller, APPROVALS);
      expect(lines).toHaveLength(PROBLEMS.length);
      for (const [path, message] of PROBLEMS) expect(lines).toContain(`${caller} at options.approvals.${path}: ${message}`);
      // A tools value that is no mapping, or an answer that is no text, is said as testRun says it, at its own key.
      expect(await refused(caller, { tools: null })).toEqual([`${caller} at options.approvals.tools: expected object, got null`]);
      expect(await refused(caller, { tools: { delete_order: 'approve', send_email: 5 } })).toEqual([
        `${caller} at options.approvals.tools.send_email: expected string, got number 5`,
      ]);
      expect(await refused(caller, 'approve')).toEqual([`${caller} at options.approvals: expected object, got string "approve"`]);
    }
  });

  describe('MCP test_run', () => {
    let client: Client;
    beforeAll(async () => {
      client = await connectAgentcheck(ROOT);
    });
    afterAll(async () => {
      await client?.close();
    });

    it('names them all in one tool error', async () => {
      const result = await call(client, 'test_run', { ...REFUND_REQUEST, approvals: APPROVALS });
      expect(result.isError).toBe(true);
      const answer = text(result);
      expect(answer.startsWith('invalid input: ')).toBe(true);
      const lines = answer.slice('invalid input: '.length).split('\n');
      expect(lines).toHaveLength(PROBLEMS.length);
      for (const [path, message] of PROBLEMS) expect(lines).toContain(`arguments at approvals.${path}: ${message}`);
    });

    it('says an approvals that is no object as the CLI does, beside the other arguments', async () => {
      const result = await call(client, 'test_run', { ...REFUND_REQUEST, approvals: 'yes', expectations: { terminal_tool: 'create_refnd' } });
      expect(text(result)).toContain('arguments at approvals: expected object, got string "yes"');
      expect(text(result)).toContain('arguments at expectations.terminal_tool: expectations.terminal_tool names no tool of the agent: "create_refnd"');
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
