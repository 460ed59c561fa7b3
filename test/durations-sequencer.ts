import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The committed durations of the test files (test/durations.json, written by
 * `node scripts/test-durations.mjs` from vitest's cache): milliseconds by `project:path`.
 */
const COMMITTED: Readonly<Record<string, number>> = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;

/**
 * vitest's order (projects in turn, files that failed last time first, then the longest first),
 * with the committed durations standing in for the ones vitest has not cached yet. A fresh
 * checkout, as in CI, has none cached: vitest then starts the largest files first, and long files
 * that are small (they mostly wait on processes and timers) started last and ended the run late,
 * about 7 s of a run on 2 cores. A file in neither starts first, as vitest starts unknown files.
 */
export class DurationsSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId).split('\\').join('/')}`;
    const known = (spec: TestSpecification) => {
      const name = key(spec);
      const cached = this.ctx.cache.getFileTestResults(name);
      return { failed: cached?.failed ?? false, duration: cached?.duration ?? COMMITTED[name] };
    };
    // Projects run one after the other, in the order vitest gives them.
    const projects = [...new Set((await super.sort(files)).map((spec) => spec.project.name))];
    return projects.flatMap((name) =>
      files
        .filter((spec) => spec.project.name === name)
        .map((spec) => ({ spec, ...known(spec) }))
        .sort((a, b) => {
          if (a.duration === undefined || b.duration === undefined) return a.duration === undefined ? (b.duration === undefined ? 0 : -1) : 1;
          if (a.failed !== b.failed) return a.failed ? -1 : 1;
          return b.duration - a.duration;
        })
        .map(({ spec }) => spec),
    );
  }
}
