import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runLoadedScenario } from '../../../src/runner/suite/run-loaded-scenario.js';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { runSuite } from '../../../src/runner/suite/run-suite.js';
import { runScenario } from '../../../src/vitest/run-scenario.js';
import { ROOT } from '../../e2e/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { VITEST_ENTRY } from '../../vitest/fixture-project.js';

/** A module whose paramsSchema refuses a negative limit. */
const LIMIT_CHECK =
  "export const paramsSchema = {type: 'object', required: ['limit'], properties: {limit: {type: 'number', minimum: 0}}};\nexport default () => ({status: 'pass', reason: 'ok'});\n";

const scenario = (name: string, limit: number) =>
  [
    `name: ${name}`,
    'agent: ../agent.yaml',
    'inputs: {messages: [{role: user, content: go}]}',
    'model: {script: [{tool_calls: [{name: touch, args: {}}]}, {text: done}]}',
    'expect:',
    '  checks:',
    `    - custom: {module: ./limit.mjs, params: {limit: ${limit}}}`,
    '',
  ].join('\n');

/**
 * A build whose tool `touch` appends to SIDE_EFFECT, and a scenario calling it whose custom check
 * params the module refuses (`refused/`), beside one whose params it takes (`fine/`).
 */
function project(): { dir: string; sideEffect: string; message: string } {
  const dir = tempDir({
    'refused/limit.mjs': LIMIT_CHECK,
    'refused/s.scenario.yaml': scenario('s', -1),
    'fine/limit.mjs': LIMIT_CHECK,
    'fine/t.scenario.yaml': scenario('t', 1),
  });
  const sideEffect = join(dir, 'SIDE_EFFECT');
  writeFileSync(
    join(dir, 'agent.yaml'),
    `id: bot\nagent:\n  name: Bot\n  tools:\n    - name: touch\n      parameters: {type: object}\n      command: {argv: [sh, -c, ${JSON.stringify(`echo ran >> '${sideEffect}'`)}]}\n`,
  );
  const message = `${join(dir, 'refused/s.scenario.yaml')}:7:45 at expect.checks[0].custom.params: limit: expected a number >= 0, got number -1 (the paramsSchema of ./limit.mjs)`;
  return { dir, sideEffect, message };
}

describe('custom check modules and params are checked before anything runs, on every library path', () => {
  it('agentcheck/vitest runScenario() throws the located ConfigError, as `agentcheck run` exits 2, and runs no tool', async () => {
    const { dir, sideEffect, message } = project();
    await expect(runScenario('refused/s.scenario.yaml', undefined, { cwd: dir })).rejects.toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message }));
    expect(existsSync(sideEffect)).toBe(false);
    // Params the module takes: the scenario runs.
    expect((await runScenario('fine/t.scenario.yaml', undefined, { cwd: dir })).status).toBe('pass');
    expect(readFileSync(sideEffect, 'utf8')).toBe('ran\n');
  });

  it('runSuite refuses the plan with the ConfigError before any run, as `agentcheck run` does', async () => {
    const { dir, sideEffect, message } = project();
    const plan = loadSuite({ paths: ['fine', 'refused'] }, dir);
    await expect(runSuite(plan, { concurrency: 1 })).rejects.toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message }));
    expect(existsSync(sideEffect)).toBe(false);
  });

  it('runLoadedScenario, which never throws, gives an error row without running the scenario', async () => {
    const { dir, sideEffect, message } = project();
    const [run] = loadSuite({ paths: ['refused'] }, dir).runs;
    const row = await runLoadedScenario(run.scenario, { variant: run.variant, revision: run.revision, repeat: 0 });
    expect(row).toMatchObject({ status: 'error', error: { type: 'CONFIG_INVALID', message }, test_run: null, turns: 0 });
    expect(existsSync(sideEffect)).toBe(false);
  });

  it('scenarios() fails the test file with the ConfigError while collecting and runs no scenario, the fine ones included', async () => {
    const { dir, sideEffect, message } = project();
    // agentcheck loads as Node loads it (external), as an installed package does: inlined, vite
    // transformed each of the dist files first, most of the test's CPU.
    writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['**/*.test.mjs'], server: { deps: { external: [/\\/dist\\//] } } } };\n");
    writeFileSync(join(dir, 'agent.test.mjs'), `import { scenarios } from ${JSON.stringify(VITEST_ENTRY)};\nscenarios('**/*.scenario.yaml');\n`);
    const result = await execa('node', [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], {
      cwd: dir,
      reject: false,
      env: { CI: 'true', NO_COLOR: '1' },
      all: true,
    });
    expect(result.exitCode, result.all).toBe(1);
    expect(result.all).toContain(`ConfigError: ${message}`);
    expect(result.all).toMatch(/Tests\s+no tests/);
    expect(existsSync(sideEffect)).toBe(false);
  });
});
