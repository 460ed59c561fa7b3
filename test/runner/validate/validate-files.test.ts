import { describe, expect, it } from 'vitest';
import { validateFiles } from '../../../src/runner/validate/validate-files.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('validateFiles on a folder', () => {
  it('reports a build with a misspelled top-level key instead of skipping it, and leaves other YAML alone', async () => {
    const dir = tempDir({
      'typo.yaml': 'id: bot\nagnet:\n  name: Bot\n',
      'ok.yaml': 'id: bot\nagent:\n  name: Bot\n',
      'other.yaml': 'id: 3\nkind: something else\n',
      'empty.yaml': '',
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.counts.agent).toBe(1);
    expect(report.problems).toHaveLength(1);
    // `agent` is no longer required on its own (an `external` build has none): the typo itself is reported.
    expect(report.problems[0].message).toMatch(/typo\.yaml:2:1 at agnet: unknown key "agnet"; expected one of: .*agent.*external/);
  });

  it('validates external agent builds found in a folder', async () => {
    const dir = tempDir({
      'ext.yaml': 'id: ext\nexternal:\n  command: [node, agent.mjs]\n',
      'bad.yaml': 'id: bad\nexternal:\n  command: []\n',
    });
    const report = await validateFiles(['.'], {}, dir);
    expect(report.counts.agent).toBe(1);
    expect(report.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/bad\.yaml:3:\d+ at external\.command: /)]);
  });
});
