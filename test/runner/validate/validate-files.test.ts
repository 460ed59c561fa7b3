import { describe, expect, it } from 'vitest';
import { validateFiles } from '../../../src/runner/validate/validate-files.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('validateFiles on a folder', () => {
  it('reports a build with a misspelled top-level key instead of skipping it, and leaves other YAML alone', () => {
    const dir = tempDir({
      'typo.yaml': 'id: bot\nagnet:\n  name: Bot\n',
      'ok.yaml': 'id: bot\nagent:\n  name: Bot\n',
      'other.yaml': 'id: 3\nkind: something else\n',
      'empty.yaml': '',
    });
    const report = validateFiles(['.'], {}, dir);
    expect(report.counts.agent).toBe(1);
    expect(report.problems).toHaveLength(1);
    // `agent` is no longer required on its own (an `external` build has none): the typo itself is reported.
    expect(report.problems[0].message).toMatch(/typo\.yaml:2:1 at agnet: unknown key "agnet"; expected one of: .*agent.*external/);
  });

  it('validates external agent builds found in a folder', () => {
    const dir = tempDir({
      'ext.yaml': 'id: ext\nexternal:\n  command: [node, agent.mjs]\n',
      'bad.yaml': 'id: bad\nexternal:\n  command: []\n',
    });
    const report = validateFiles(['.'], {}, dir);
    expect(report.counts.agent).toBe(1);
    expect(report.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/bad\.yaml:3:\d+ at external\.command: /)]);
  });

  it('reports every bad agent.mcps entry of a build, each at its path, never quoting a URL password', () => {
    const dir = tempDir({
      'agent.yaml': [
        'id: bot',
        'agent:',
        '  name: Bot',
        '  mcps:',
        '    - {name: fs, command: [x]}',
        '    - {name: fs, command: [y]}',
        '    - {name: gh, url: "https://ada:pw-hunter22@mcp.test/mcp"}',
        '    - {name: ws, url: "ws://mcp.test/"}',
        '',
      ].join('\n'),
    });
    const report = validateFiles(['.'], {}, dir);
    expect(report.problems.map((problem) => [problem.path, problem.line])).toEqual([
      ['agent.mcps[1].name', 6],
      ['agent.mcps[2].url', 7],
      ['agent.mcps[3].url', 8],
    ]);
    expect(report.problems[1].message).toContain('send them in "headers" with a secret reference instead');
    expect(report.problems.map((problem) => problem.message).join('\n')).not.toContain('pw-hunter22');
  });
});
