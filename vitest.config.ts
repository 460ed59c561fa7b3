import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { DurationsSequencer } from './test/durations-sequencer.js';

/**
 * Test files that need a module graph of their own: they replace modules with vi.mock, or test
 * what a module captures when it loads (direct-post.ts keeps the fetch of start-up).
 */
const ISOLATED = [
  'test/engine/providers/direct-post.test.ts',
  'test/runner/compare/read-report-unreadable.test.ts',
  'test/runner/reporters/write-atomic-interrupted.test.ts',
  'test/spans/spans-query-command.test.ts',
];

// No test may depend on the machine's speed: CI runs on a busy 2-core machine, so timeouts are
// generous and only catch a hang. Speed is measured by bench/ (npm run bench), never by tests.
export default defineConfig({
  // The sources find the build's precompiled format validators (npm run build, before the tests),
  // as the CLI bundle does, instead of each worker compiling every format schema with Ajv at first
  // use (about 0.4 s of CPU per worker and isolated file). Found by the schema's content hash: a
  // schema changed since the build, or no build, is compiled as before; the validators give the
  // errors a validator compiled now gives (test/scripts/precompiled-schemas.test.ts).
  define: { AGENTCHECK_FORMAT_VALIDATORS: JSON.stringify(new URL('./dist/src/config/format-validators/', import.meta.url).href) },
  test: {
    testTimeout: 120_000,
    // Builds what the tests start as child processes (the stub MCP servers' bundles) once per run.
    globalSetup: ['test/global-setup.ts'],
    // Longest files first, from vitest's cache or else test/durations.json (a fresh checkout has no cache).
    sequence: { sequencer: DurationsSequencer },
    hookTimeout: 120_000,
    pool: 'forks',
    // Tests that import the build (dist/src, the library as a user installs it) get it from Node, as
    // an installed package is, not through vite's transform of each of its modules: that cost the
    // run's main process and each worker about 2 s of CPU, for a copy no user runs.
    server: { deps: { external: [new RegExp(`^${fileURLToPath(new URL('./dist/', import.meta.url)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)] } },
    // Many files mostly wait on child processes (the built CLI, MCP servers, commands) or on
    // timers, so one worker per core leaves the cores idle; vitest's default on 2 cores is a single
    // worker. Four on 2 cores: 89 s against 99 s with three, 112 s against 121-124 s beside a CPU hog.
    maxWorkers: 4,
    // The CLI reacts to CI variables (shards, GitHub annotations); the suite must behave the same
    // whichever CI runs it, so they are blanked for the tests and their children.
    env: { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '', CI_NODE_INDEX: '', CI_NODE_TOTAL: '', JOB_COMPLETION_INDEX: '', AGENTCHECK_SHARD_TOTAL: '' },
    projects: [
      // Most files share their worker's modules: importing the sources once per worker rather than
      // once per file saves about 50 s of the suite on 2 cores. Tests keep their state in their
      // own temp folders, servers and runs, and restore what they change.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
