import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { invoke } from '../../src/engine/invoke.js';
import { ScriptedModel } from '../../src/engine/providers/scripted.js';
import { loadAgentBuild } from '../../src/engine/revision/load-build.js';
import { testRun, type TestRunRequest } from '../../src/runner/test-run.js';
import { runCli } from '../e2e/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { call, connectAgentcheck, text } from './mcp/mcp-client.js';

const ROOT = join(import.meta.dirname, '../..');
const AGENT = join(ROOT, 'fixtures/agents/support-bot.yaml');
const INPUTS = { messages: [{ role: 'user' as const, content: 'refund 1234' }] };

/** A typo in one entry, an empty entry and an unknown tool: three problems of one script. */
const SCRIPT = [{ txt: 'a' }, {}, { tool_calls: [{ name: 'nope' }] }];

/** Each problem the script rules find: its path inside the script and what test-run --script says of it. */
const ENTRY_PROBLEMS: Array<[path: string, message: string]> = [
  ['[0].txt', 'unknown key "txt" (did you mean "text"?); expected one of: text, tool_calls, usage, delay_ms, error'],
  ['[1]', 'an entry needs text, tool_calls or error: what the model answers on that call'],
];
/** What a door that holds the script to the build (not ScriptedModel nor invoke) says beside them. */
const NAME_PROBLEM: [path: string, message: string] = [
  '[2].tool_calls[0].name',
  'the script calls "nope", which the agent does not offer the model; expected one of: lookup_order, create_refund, delete_order, send_email (a test-run script calls only tools the agent offers; to test a call to an unknown tool, write a scenario with model.allow_unknown_tools: true)',
];

/** The lines of the ConfigError `run` throws (never a run, never a TypeError). */
async function problemLines(run: () => unknown): Promise<string[]> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  return (caught as Error).message.split('\n');
}

describe('a format problem in one script entry hides no other entry’s problem, whichever door the script comes through', () => {
  it('test-run --script FILE (the reference)', async () => {
    const dir = tempDir({ 'script.json': JSON.stringify(SCRIPT) });
    const result = await runCli(['test-run', '--agent', AGENT, '--message', 'refund', '--script', 'script.json'], dir);
    expect(result.exitCode).toBe(2);
    for (const [path, message] of [...ENTRY_PROBLEMS, NAME_PROBLEM]) {
      expect(result.stderr).toMatch(new RegExp(`script\\.json:\\d+:\\d+ at ${escape(path)}: ${escape(message)}`));
    }
  });

  it("the library's testRun, with the other entries' tool names", async () => {
    const lines = await problemLines(() => testRun({ agent: AGENT, inputs: INPUTS, script: SCRIPT } as unknown as TestRunRequest));
    expect(lines).toEqual([...ENTRY_PROBLEMS, NAME_PROBLEM].map(([path, message]) => `testRun at script${path}: ${message}`));
  });

  it("the library's invoke and new ScriptedModel (which hold no tool name to a build)", async () => {
    const invoked = await problemLines(() => invoke(loadAgentBuild(AGENT), INPUTS, { script: SCRIPT as never }));
    expect(invoked).toEqual(ENTRY_PROBLEMS.map(([path, message]) => `invoke at options.script${path}: ${message}`));
    const constructed = await problemLines(() => new ScriptedModel(SCRIPT as never));
    expect(constructed).toEqual(ENTRY_PROBLEMS.map(([path, message]) => `ScriptedModel at script${path}: ${message}`));
  });
});

describe('MCP test_run holds its script to the same rules, in the same words', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck(ROOT);
  });
  afterAll(async () => {
    await client?.close();
  });
  const request = { agent: 'fixtures/agents/support-bot.yaml', inputs: INPUTS };

  /** The lines of a refused test_run's tool error, after `invalid input: `. */
  async function refusedLines(script: unknown): Promise<string[]> {
    const result = await call(client, 'test_run', { ...request, script });
    expect(result.isError).toBe(true);
    const answer = text(result);
    expect(answer.startsWith('invalid input: ')).toBe(true);
    return answer.slice('invalid input: '.length).split('\n');
  }

  it("names every entry's problem and the other entries' tool names in one tool error", async () => {
    expect(await refusedLines(SCRIPT)).toEqual([...ENTRY_PROBLEMS, NAME_PROBLEM].map(([path, message]) => `arguments at script${path}: ${message}`));
  });

  it("says a format problem in testRun's words, not the input schema's", async () => {
    const lines = await refusedLines([{ text: 5 }, { text: 'x', usage: { input_tokens: -1 } }, { txt: 'x' }, { error: { message: 'x', status: 'x' } }, null]);
    expect(lines).toEqual([
      'arguments at script[0].text: expected string, got number 5',
      'arguments at script[1].usage.input_tokens: expected a number >= 0, got number -1',
      'arguments at script[2].txt: unknown key "txt" (did you mean "text"?); expected one of: text, tool_calls, usage, delay_ms, error',
      'arguments at script[3].error.status: expected integer, got string "x"',
      'arguments at script[4]: expected object, got null',
    ]);
    expect(await refusedLines({ text: 'a' })).toEqual(['arguments at script: expected array, got an object']);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
