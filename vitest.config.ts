import { defineConfig } from 'vitest/config';

// No test may depend on the machine's speed: CI runs on a busy 2-core machine, so timeouts are
// generous and only catch a hang. Speed is measured by bench/ (npm run bench), never by tests.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Many files mostly wait on child processes (the built CLI, MCP servers, commands), so one
    // worker per core leaves the cores idle; vitest's default on 2 cores is a single worker.
    maxWorkers: 3,
    // The CLI reacts to CI variables (shards, GitHub annotations); the suite must behave the same
    // whichever CI runs it, so they are blanked for the tests and their children.
    env: { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '', CI_NODE_INDEX: '', CI_NODE_TOTAL: '', JOB_COMPLETION_INDEX: '', AGENTCHECK_SHARD_TOTAL: '' },
  },
});
