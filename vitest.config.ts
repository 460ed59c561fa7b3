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
  },
});
