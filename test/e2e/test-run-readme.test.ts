import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './cli.js';

/** The README's own test-run example: the shell block under "Self-test an agent change", as argv. */
function readmeTestRunArgs(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /\*\*Self-test an agent change\*\*[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no test-run example block');
  const command = block[1].replace(/\\\n/g, ' ').trim();
  const words = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]);
  expect(words.slice(0, 3)).toEqual(['npx', 'agentcheck', 'test-run']);
  return words.slice(2);
}

describe('the README test-run example (built CLI)', () => {
  it('passes offline with --mocks and saves spans the printed trace id finds', async () => {
    const args = readmeTestRunArgs();
    expect(args).toContain('--mocks');
    const result = await runCli(args, ROOT);
    expect(result.exitCode, result.all).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn', output: 'Refund created.' });
    expect(printed.tools.map((tool: { name: string }) => tool.name)).toEqual(['lookup_order', 'create_refund']);

    const spansFile = args[args.indexOf('--spans') + 1];
    const query = await runCli(['spans', 'query', spansFile, '--trace', printed.trace_id], ROOT);
    expect(query.exitCode, query.all).toBe(0);
    const found = JSON.parse(query.stdout) as { count: number; spans: Array<{ name: string; trace_id: string }> };
    expect(found.spans.map((span) => span.name)).toEqual(expect.arrayContaining(['execute_tool lookup_order', 'execute_tool create_refund']));
    expect(new Set(found.spans.map((span) => span.trace_id))).toEqual(new Set([printed.trace_id]));
  });
});
