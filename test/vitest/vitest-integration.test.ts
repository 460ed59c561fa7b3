import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../e2e/cli.js';
import { fixtureProject, VITEST_ENTRY } from './fixture-project.js';

interface AssertionResult {
  ancestorTitles: string[];
  title: string;
  status: 'passed' | 'failed' | 'skipped' | 'pending' | 'todo';
  failureMessages: string[];
}

interface VitestJson {
  numTotalTests: number;
  testResults: Array<{ assertionResults: AssertionResult[] }>;
}

describe('agentcheck/vitest on a fixture project', () => {
  it('is exported from package.json as agentcheck/vitest', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['./vitest']).toEqual({ types: './dist/src/vitest/index.d.ts', default: './dist/src/vitest/index.js' });
    expect(existsSync(VITEST_ENTRY), 'run "npm run build" first').toBe(true);
  });

  it("leaves runScenario to agentcheck/vitest: the main entry's runner of a loaded scenario has its own name", async () => {
    const main: Record<string, unknown> = await import('../../src/index.js');
    expect(main.runScenario).toBeUndefined();
    expect(typeof main.runLoadedScenario).toBe('function');
    expect(typeof (await import('../../src/vitest/index.js')).runScenario).toBe('function');
  });

  it('turns scenarios into tests and reports failures with the reason and the trajectory', async () => {
    const dir = fixtureProject();
    const result = await execa('node', [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=json', '--outputFile=results.json'], {
      cwd: dir,
      reject: false,
      env: { CI: 'true' },
      all: true,
    });
    expect(result.exitCode, result.all).toBe(1);
    const json = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as VitestJson;
    const tests = new Map(json.testResults.flatMap((file) => file.assertionResults).map((test) => [[...test.ancestorTitles, test.title].join(' > '), test]));
    const status = Object.fromEntries([...tests].map(([name, test]) => [name, test.status]));

    // One test per scenario x variant, grouped by scenario file (with a config, ids start at the
    // config's folder, as agentcheck run gives them).
    expect(status).toEqual({
      'scenarios/pass.scenarios.yaml > first [base]': 'passed',
      'scenarios/pass.scenarios.yaml > first [lean]': 'passed',
      'scenarios/pass.scenarios.yaml > second [base]': 'passed',
      'scenarios/pass.scenarios.yaml > second [lean]': 'passed',
      'scenarios/fail.scenario.yaml > never finishes [base]': 'failed',
      'scenarios/fail.scenario.yaml > never finishes [lean]': 'failed',
      'scenarios/nested/skipped.scenario.yaml > later [base]': 'skipped',
      'scenarios/nested/skipped.scenario.yaml > later [lean]': 'skipped',
      'repeated > scenarios/fail.scenario.yaml > never finishes [base]': 'failed',
      'matchers > pass on a passing row': 'passed',
      'matchers > pass on a testRun result': 'passed',
      'matchers > pass on a failing row with not and its verdict': 'passed',
      'matchers > fails toPass with the reason and the trajectory': 'failed',
      'matchers > fails toHaveCalledTool on arguments': 'failed',
      'matchers > fails toHaveCalledToolsInOrder on a testRun result': 'failed',
    });

    const message = (name: string) => tests.get(name)!.failureMessages.join('\n');
    const scenarioFailure = message('scenarios/fail.scenario.yaml > never finishes [lean]');
    expect(scenarioFailure).toContain('expected scenario "never finishes" [lean] to pass, but it ended fail');
    expect(scenarioFailure).toContain('Reason: verdict incomplete, expected pass: terminal tool finish was never called');
    expect(scenarioFailure).toContain('tool_called#0: expected lookup to be called at least once with matching arguments');
    expect(scenarioFailure).toContain('Trajectory (1 tool call):\n  1. lookup {"id":"2"} -> ok');
    // With repeats, the failure says which one failed; without, it says none.
    expect(scenarioFailure).not.toContain('repeat');
    expect(message('repeated > scenarios/fail.scenario.yaml > never finishes [base]')).toContain(
      'repeat 0 of 2 (numbered from 0): expected scenario "never finishes" [base] to pass, but it ended fail',
    );

    expect(message('matchers > fails toPass with the reason and the trajectory')).toContain('Trajectory (1 tool call):\n  1. lookup {"id":"2"} -> ok');
    const argsFailure = message('matchers > fails toHaveCalledTool on arguments');
    expect(argsFailure).toContain(
      'expected scenario "never finishes" [base] to call lookup with arguments including {"id":"1"}, but none of its 1 call(s) matched (call 1: argument "id":',
    );
    expect(argsFailure).toContain('1. lookup {"id":"2"} -> ok');
    const orderFailure = message('matchers > fails toHaveCalledToolsInOrder on a testRun result');
    expect(orderFailure).toContain(
      'expected test_run to call finish -> lookup in this order (first calls), but "lookup" was first called before "finish"; first calls were: lookup -> finish',
    );
    expect(orderFailure).toContain('Trajectory (2 tool calls):\n  1. lookup {"id":"9"} -> ok\n  2. finish {} -> ok');
  });
});
