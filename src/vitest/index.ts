/**
 * agentcheck's vitest integration (package entry "agentcheck/vitest"). Explicit exports, no logic.
 * Importing it adds the matchers to vitest's `expect` (see register-matchers.ts).
 */
import './register-matchers.js';

export { scenarios } from './scenarios.js';
export type { ScenariosOptions } from './scenarios.js';
export type { LoadScenariosOptions } from './load-scenarios.js';
export { runScenario } from './run-scenario.js';
export type { RunScenarioOptions } from './run-scenario.js';
export { resumeTestRun, testRun } from './test-run.js';
export { agentcheckMatchers, installMatchers } from './register-matchers.js';
export type { AgentcheckMatchers } from './register-matchers.js';
export { formatTrajectory } from './trajectory.js';
export type { TrajectoryCall } from './trajectory.js';

export type { ScenarioRow } from '../runner/report/report.js';
export type { TestRunRequest, TestRunResult } from '../runner/test-run.js';
