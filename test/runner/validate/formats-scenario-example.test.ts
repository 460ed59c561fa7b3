import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateFiles } from '../../../src/runner/validate/validate-files.js';
import { tempDir } from '../../helpers/temp-dir.js';

const ROOT = join(import.meta.dirname, '../../..');

/** The first ```yaml block under docs/formats.md's "## Scenario": the example of every field. */
function documentedScenario(): string {
  const doc = readFileSync(join(ROOT, 'docs/formats.md'), 'utf8');
  const block = /^```yaml\n([\s\S]*?)^```/m.exec(doc.slice(doc.indexOf('\n## Scenario\n')));
  if (!block) throw new Error('docs/formats.md has no ```yaml block under ## Scenario');
  return block[1]!;
}

describe("docs/formats.md's scenario example", () => {
  it("validates as it stands, as a file of the repository's scenarios/ folder: every path it names exists, no placeholder is left", async () => {
    // The repository's layout, linked: fixtures/ and scenarios/datasets/ beside the example.
    const dir = tempDir({ 'scenarios/example.scenario.yaml': documentedScenario() });
    symlinkSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'), 'dir');
    mkdirSync(join(dir, 'scenarios'), { recursive: true });
    symlinkSync(join(ROOT, 'scenarios/datasets'), join(dir, 'scenarios/datasets'), 'dir');
    const report = await validateFiles(['scenarios/example.scenario.yaml'], {}, dir);
    expect(report.problems.map((problem) => problem.message)).toEqual([]);
    expect(report.scenarios).toBeGreaterThan(1);
    expect(documentedScenario()).not.toContain('...');
  });
});
