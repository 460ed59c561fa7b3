import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_YAML, passingScenario, ROOT } from '../e2e/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The built entry the fixture imports (`agentcheck/vitest` in package.json "exports"). */
export const VITEST_ENTRY = join(ROOT, 'dist/src/vitest/index.js');

const FAILING = `name: never finishes
agent: ../agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: lookup, args: {id: "2"}}]}, {text: "gave up"}]}
expect:
  terminal_tool: finish
  checks:
    - tool_called: {tool: lookup, args: {id: "1"}}
`;

const SCRIPT = `[{ tool_calls: [{ name: 'lookup', args: { id: '9' } }] }, { tool_calls: [{ name: 'finish', args: {} }] }, { text: 'done' }]`;

/** The fixture's test file: scenarios() over the folder, and matchers that pass and deliberately fail, imported as a user imports them. */
const TEST_FILE = `import { describe, expect, it } from 'vitest';
import { runScenario, scenarios, testRun } from 'agentcheck/vitest';

scenarios('scenarios/**/*.scenario*.yaml', { config: 'agentcheck.config.yaml' });

describe('repeated', () => scenarios('scenarios/fail.scenario.yaml', { config: 'agentcheck.config.yaml', variants: ['base'], repeat: 2 }));

const run = () => testRun({ agent: 'agent.yaml', inputs: { messages: [{ role: 'user', content: 'go' }] }, expectations: { terminal_tool: 'finish' }, script: ${SCRIPT} });

describe('matchers', () => {
  it('pass on a passing row', async () => {
    const row = await runScenario('scenarios/pass.scenarios.yaml', 'first');
    expect(row).toPass();
    expect(row).toHaveVerdict('pass');
    expect(row).toHaveCalledTool('lookup', { id: '1' });
    expect(row).toHaveCalledTool('lookup', { id: { $regex: '^[0-9]$' } });
    expect(row).toHaveCalledTool('/^fin/');
    expect(row).not.toHaveCalledTool('lookup', { id: '2' });
    // A name the build lacks could only pass vacuously: refused.
    expect(() => expect(row).not.toHaveCalledTool('delete_everything')).toThrow(/the build has no tool "delete_everything"/);
    expect(row).toHaveCalledToolsInOrder(['lookup', 'finish']);
    expect(row).not.toHaveCalledToolsInOrder(['finish', 'lookup']);
  });

  it('pass on a testRun result', async () => {
    const result = await run();
    expect(result).toPass();
    expect(result).toHaveVerdict('pass');
    expect(result).toHaveCalledTool('lookup', { id: '9' });
    expect(result).toHaveCalledToolsInOrder(['lookup', 'finish']);
  });

  it('pass on a failing row with not and its verdict', async () => {
    const row = await runScenario('scenarios/fail.scenario.yaml');
    expect(row).not.toPass();
    expect(row).toHaveVerdict('incomplete');
  });

  it('fails toPass with the reason and the trajectory', async () => {
    expect(await runScenario('scenarios/fail.scenario.yaml')).toPass();
  });

  it('fails toHaveCalledTool on arguments', async () => {
    expect(await runScenario('scenarios/fail.scenario.yaml')).toHaveCalledTool('lookup', { id: '1' });
  });

  it('fails toHaveCalledToolsInOrder on a testRun result', async () => {
    expect(await run()).toHaveCalledToolsInOrder(['finish', 'lookup']);
  });
});
`;

/** A small vitest project in a temp folder: passing, failing and skipped scenarios, two variants. */
export function fixtureProject(): string {
  const dir = tempDir({
    'agent.yaml': AGENT_YAML,
    'agentcheck.config.yaml': 'variants:\n  lean: {set: {agent: {instructions: "Be brief."}}}\n',
    'scenarios/pass.scenarios.yaml': `scenarios:\n${['first', 'second'].map((name) => `  - ${passingScenario(name).replace('agent: agent.yaml', 'agent: ../agent.yaml').trimEnd().replace(/\n/g, '\n    ')}\n`).join('')}`,
    'scenarios/fail.scenario.yaml': FAILING,
    'scenarios/nested/skipped.scenario.yaml': passingScenario('later', 'skip: waits for the new API').replace('agent: agent.yaml', 'agent: ../../agent.yaml'),
    // preserveSymlinks: agentcheck, linked below, stays a package under node_modules, which vitest
    // leaves to Node as it does an installed one, instead of transforming every module of dist/
    // through vite (about 3 s of CPU more, and not what a user's project does).
    'vitest.config.mjs': "export default { resolve: { preserveSymlinks: true }, test: { include: ['**/*.test.mjs'], testTimeout: 120000 } };\n",
    'agent.test.mjs': TEST_FILE,
  });
  // The fixture resolves `vitest` (its test file and the built entry) to this repo's one install,
  // and `agentcheck/vitest` through package.json's exports to the build (VITEST_ENTRY).
  mkdirSync(join(dir, 'node_modules/agentcheck'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules/vitest'), join(dir, 'node_modules/vitest'), 'dir');
  for (const name of ['package.json', 'dist']) symlinkSync(join(ROOT, name), join(dir, 'node_modules/agentcheck', name));
  return dir;
}
