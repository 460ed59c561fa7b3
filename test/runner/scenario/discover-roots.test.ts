import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverScenarioFiles, scenarioFileId } from '../../../src/runner/scenario/discover.js';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { CLI_NAMES } from '../../../src/runner/suite/selection-names.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('scenario ids when run is given several paths', () => {
  it("relates every file to the paths' common folder, so same-named files in two folders get distinct ids", () => {
    const dir = tempDir({ 'a/s.scenario.yaml': 'name: same\n', 'b/s.scenario.yaml': 'name: same\n', 'c/deep/t.scenario.yaml': 'name: t\n' });
    const ids = discoverScenarioFiles(['a', 'b', 'c/deep/t.scenario.yaml'], dir).map((found) => scenarioFileId(found.file, found.root));
    expect(ids).toEqual(['a/s.scenario.yaml', 'b/s.scenario.yaml', 'c/deep/t.scenario.yaml']);
  });

  it('keeps a single path its own root, as before', () => {
    const dir = tempDir({ 'a/s.scenario.yaml': 'name: same\n' });
    const [found] = discoverScenarioFiles([join(dir, 'a')], dir);
    expect(scenarioFileId(found.file, found.root)).toBe('s.scenario.yaml');
  });
});

describe('the order of the files found in a folder', () => {
  it('is by code units, whatever the locale: upper case before lower, "_" after letters in upper case, folders among files', () => {
    const dir = tempDir({
      'b.scenario.yaml': 'name: b\n',
      'a_x.scenario.yaml': 'name: ax\n',
      'aB.scenario.yaml': 'name: aB\n',
      'B.scenario.yaml': 'name: B\n',
      'a/z.scenario.yaml': 'name: z\n',
      'a-x.scenario.yaml': 'name: a-x\n',
    });
    const ids = discoverScenarioFiles(['.'], dir).map((found) => scenarioFileId(found.file, found.root));
    // localeCompare would give a/z, a_x, a-x, aB, b, B (a locale's order, and ICU's data loaded at start).
    expect(ids).toEqual(['B.scenario.yaml', 'a/z.scenario.yaml', 'a-x.scenario.yaml', 'aB.scenario.yaml', 'a_x.scenario.yaml', 'b.scenario.yaml']);
  });
});

describe('a path that is there but cannot be followed', () => {
  it('says why (a symlink loop), as run does, not "path not found"', () => {
    const dir = tempDir();
    symlinkSync('loop2.scenario.yaml', join(dir, 'loop1.scenario.yaml'));
    symlinkSync('loop1.scenario.yaml', join(dir, 'loop2.scenario.yaml'));
    expect(() => discoverScenarioFiles(['loop1.scenario.yaml'], dir)).toThrow(/loop1\.scenario\.yaml: cannot be read: ELOOP/);
  });
});

describe('a word that reads as a missing path', () => {
  it("gets the CLI's hint at the comma list of --reporter when the word is a reporter name, at --variant/--tag otherwise", () => {
    const dir = tempDir({ 'a.scenario.yaml': 'name: a\n' });
    const hint = CLI_NAMES.pathHint;
    expect(() => discoverScenarioFiles(['a.scenario.yaml', 'md'], dir, hint)).toThrow(
      '(if "md" is a reporter: --reporter takes a comma list, as in --reporter json,md)',
    );
    expect(() => discoverScenarioFiles(['a.scenario.yaml', 'lean'], dir, hint)).toThrow('(if "lean" is a variant or tag name:');
  });

  it('names no CLI flag to a library caller (loadSuite)', () => {
    const dir = tempDir({ 'a.scenario.yaml': 'name: a\n' });
    for (const word of ['md', 'lean']) {
      expect(() => loadSuite({ paths: ['a.scenario.yaml', word] }, dir)).toThrow(
        new RegExp(`^${word}: path not found: expected a scenario file or a folder of \\*\\.scenario\\.yaml files$`),
      );
    }
  });
});

describe('a linked folder inside a scenario folder', () => {
  const scenario = (name: string) => `name: ${name}\n`;
  const ids = (paths: string[], dir: string) => discoverScenarioFiles(paths, dir).map((found) => scenarioFileId(found.file, found.root));

  it('is searched like a folder, as a linked file is read', () => {
    const dir = tempDir({ 's/a.scenario.yaml': scenario('a'), 'other/o.scenario.yaml': scenario('o'), 'linked.yaml': scenario('l'), 's2/.keep': '' });
    symlinkSync('../other', join(dir, 's/linkdir'));
    symlinkSync('../linked.yaml', join(dir, 's/link.scenario.yaml'));
    symlinkSync('../other', join(dir, 's2/linkdir'));
    expect(ids(['s'], dir)).toEqual(['a.scenario.yaml', 'link.scenario.yaml', 'linkdir/o.scenario.yaml']);
    // A folder holding only a linked folder is not "no scenarios".
    expect(ids(['s2'], dir)).toEqual(['linkdir/o.scenario.yaml']);
  });

  it('ends at a link back to a folder above it, and finds each file once', () => {
    const dir = tempDir({ 's/a.scenario.yaml': scenario('a'), 's/sub/b.scenario.yaml': scenario('b') });
    symlinkSync('..', join(dir, 's/sub/up'));
    symlinkSync('sub', join(dir, 's/twice'));
    expect(ids(['s'], dir)).toEqual(['a.scenario.yaml', 'sub/b.scenario.yaml']);
  });
});
