import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rebaseRowFiles } from '../../../src/runner/merge/rebase-row-files.js';
import type { ScenarioRow } from '../../../src/runner/report/report.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { row } from '../reporters/fixture-report.js';

function rowAt(root: string, file: string, name: string): ScenarioRow {
  return { ...row(file, name), file: join(root, file) };
}

describe('rebaseRowFiles (shards run in different checkouts)', () => {
  it("moves every row to this machine's run root, the one inside the current folder", () => {
    const here = tempDir({});
    const mine = join(here, 'repo/scenarios');
    mkdirSync(mine, { recursive: true });
    const rows = [
      rowAt(mine, 'a.scenario.yaml', 'one'),
      rowAt('/builds/runner-2/repo/scenarios', 'a.scenario.yaml', 'two'),
      rowAt('/builds/runner-2/repo/scenarios', 'x#y/b.scenario.yaml', 'three'),
    ];
    rebaseRowFiles(rows, here);
    expect(rows.map((one) => one.file)).toEqual([join(mine, 'a.scenario.yaml'), join(mine, 'a.scenario.yaml'), join(mine, 'x#y/b.scenario.yaml')]);
  });

  it('moves rows of shards that ran in other checkouts to the same suite in this one', () => {
    const here = tempDir({ 'scenarios/a.scenario.yaml': 'x', 'scenarios/sub/b.scenarios.yaml': 'x' });
    const rows = [rowAt('/builds/co1/scenarios', 'a.scenario.yaml', 'one'), rowAt('/builds/co2/scenarios', 'sub/b.scenarios.yaml', 'two')];
    rebaseRowFiles(rows, here);
    expect(rows.map((one) => one.file)).toEqual([join(here, 'scenarios/a.scenario.yaml'), join(here, 'scenarios/sub/b.scenarios.yaml')]);
    // One shard's report alone is moved too.
    const single = [rowAt('/builds/co1/scenarios', 'a.scenario.yaml', 'one')];
    rebaseRowFiles(single, here);
    expect(single[0].file).toBe(join(here, 'scenarios/a.scenario.yaml'));
  });

  it('leaves rows alone when they share one root, or when no root exists here', () => {
    const same = [rowAt('/elsewhere/s', 'a.scenario.yaml', 'one'), rowAt('/elsewhere/s', 'b.scenario.yaml', 'two')];
    rebaseRowFiles(same, '/tmp');
    expect(same.map((one) => one.file)).toEqual(['/elsewhere/s/a.scenario.yaml', '/elsewhere/s/b.scenario.yaml']);
    const nowhere = [rowAt('/m1/s', 'a.scenario.yaml', 'one'), rowAt('/m2/s', 'a.scenario.yaml', 'two')];
    rebaseRowFiles(nowhere, '/tmp');
    expect(nowhere.map((one) => one.file)).toEqual(['/m1/s/a.scenario.yaml', '/m2/s/a.scenario.yaml']);
  });
});
