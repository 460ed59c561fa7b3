import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { MAX_SKILL_FILES } from '../../src/skills/list-skill-files.js';
import { clearSkillFolderCache, loadSkillFolder } from '../../src/skills/load-skill-folder.js';
import { skillMd, tempSkills, type TempSkills } from './temp-skills.js';
import { configErrorOf } from '../helpers/config-error.js';

let temp: TempSkills;
beforeEach(() => {
  temp = tempSkills();
  clearSkillFolderCache();
});
afterEach(() => temp.cleanup());

const REF = { file: '/project/agent.yaml', path: 'agent.skills[1].ref' };

describe('loadSkillFolder', () => {
  it('refuses a SKILL.md that is not UTF-8 at the line and column of the byte, never reading it as U+FFFD', () => {
    const dir = temp.folder('latin1', {});
    writeFileSync(join(dir, 'SKILL.md'), Buffer.from('---\nname: latin1\ndescription: caf\xe9\n---\nbody\n', 'latin1'));
    const error = configErrorOf(() => loadSkillFolder(dir, REF));
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(error.message).toBe(
      `${join(dir, 'SKILL.md')}:3:17: is not valid UTF-8 (byte 0xE9); save the file as UTF-8 (a Latin-1 or Windows-1252 export would change its text)`,
    );
  });

  it('loads SKILL.md and lists the other files, sorted, with / separators', () => {
    const dir = temp.folder('build-an-agent', {
      'SKILL.md': skillMd('build-an-agent', 'Builds agents.', '# Build\n\nStep one.'),
      'templates/agent.yaml': 'id: x\n',
      'templates/nested/SKILL.md': 'not the skill file\n',
      'README.md': 'readme\n',
      'a.txt': 'a\n',
    });
    const skill = loadSkillFolder(dir);
    expect(skill).toEqual({
      name: 'build-an-agent',
      description: 'Builds agents.',
      body: '# Build\n\nStep one.',
      disable_model_invocation: false,
      dir,
      files: ['README.md', 'a.txt', 'templates/agent.yaml', 'templates/nested/SKILL.md'],
      source: join(dir, 'SKILL.md'),
    });
    expect(Object.isFrozen(skill)).toBe(true);
    expect(Object.isFrozen(skill.files)).toBe(true);
  });

  it('lists symbolic links as files without following them (a link cycle cannot hang)', () => {
    const dir = temp.folder('linked', { 'SKILL.md': skillMd('linked', 'd') });
    symlinkSync(dir, join(dir, 'loop'));
    expect(loadSkillFolder(dir).files).toEqual(['loop']);
  });

  it('a ref pointing nowhere is located at the ref and says what was expected', () => {
    const missing = join(temp.root, 'nope');
    const error = configErrorOf(() => loadSkillFolder(missing, REF));
    expect(error).toMatchObject({ code: 'CONFIG_NOT_FOUND', file: REF.file, path: REF.path, line: undefined });
    expect(error.message).toBe(
      `${REF.file} at ${REF.path}: skill folder "${missing}" does not exist; expected a folder that holds SKILL.md (a ref is relative to the file that holds it)`,
    );
  });

  it('without a reference, the error names the folder itself', () => {
    const missing = join(temp.root, 'nope');
    expect(configErrorOf(() => loadSkillFolder(missing))).toMatchObject({ file: missing, path: undefined });
  });

  it('a folder without SKILL.md, with a hint for a wrongly cased file', () => {
    const empty = temp.folder('empty', { 'notes.md': 'x' });
    const error = configErrorOf(() => loadSkillFolder(empty, REF));
    expect(error).toMatchObject({ code: 'CONFIG_NOT_FOUND', file: REF.file, path: REF.path });
    expect(error.expected).toBe(`skill folder "${empty}" has no SKILL.md; expected SKILL.md with front matter (name, description) and a Markdown body`);
    const lower = temp.folder('lower', { 'skill.md': skillMd('lower', 'd') });
    expect(configErrorOf(() => loadSkillFolder(lower, REF)).expected).toMatch(/\(found "skill\.md"; the file must be named SKILL\.md\)$/);
  });

  it('a SKILL.md that is a folder or a named pipe is said to be one, not missing, and is never opened', () => {
    const foldered = temp.folder('foldered', { 'notes.md': 'x' });
    mkdirSync(join(foldered, 'SKILL.md'));
    const error = configErrorOf(() => loadSkillFolder(foldered, REF));
    expect(error).toMatchObject({ code: 'CONFIG_NOT_FOUND', file: REF.file, path: REF.path });
    expect(error.expected).toBe(
      `"${join(foldered, 'SKILL.md')}" is a folder, not a regular file; expected SKILL.md to be a file with front matter (name, description) and a Markdown body`,
    );
    const piped = temp.folder('piped', { 'notes.md': 'x' });
    execFileSync('mkfifo', [join(piped, 'SKILL.md')]);
    expect(configErrorOf(() => loadSkillFolder(piped, REF)).expected).toBe(
      `"${join(piped, 'SKILL.md')}" is a named pipe (FIFO), not a regular file; expected SKILL.md to be a file with front matter (name, description) and a Markdown body`,
    );
  });

  it('a SKILL.md or a skill folder that is a link to nothing is said to be one, naming its target, not to be missing', () => {
    const linked = temp.folder('dl', {});
    symlinkSync('../shared/SKILL.md', join(linked, 'SKILL.md'));
    const error = configErrorOf(() => loadSkillFolder(linked, REF));
    expect(error).toMatchObject({ code: 'CONFIG_NOT_FOUND', file: REF.file, path: REF.path });
    expect(error.expected).toBe(
      `"${join(linked, 'SKILL.md')}" is a symbolic link to nothing: its target "../shared/SKILL.md" ("${join(temp.root, 'shared', 'SKILL.md')}") does not exist; expected SKILL.md with front matter (name, description) and a Markdown body`,
    );
    const gone = join(temp.root, 'gone');
    symlinkSync(join(temp.root, 'nowhere'), gone);
    expect(configErrorOf(() => loadSkillFolder(gone, REF)).expected).toBe(
      `skill folder "${gone}" is a symbolic link to nothing: its target "${join(temp.root, 'nowhere')}" does not exist; expected a folder that holds SKILL.md (a ref is relative to the file that holds it)`,
    );
  });

  it('a folder given that is a named pipe is said to be one, never opened', () => {
    const pipe = join(temp.root, 'fifo');
    execFileSync('mkfifo', [pipe]);
    expect(configErrorOf(() => loadSkillFolder(pipe, REF)).expected).toBe(
      `"${pipe}" is a named pipe (FIFO), not a folder; expected a skill folder that holds SKILL.md`,
    );
  });

  it('a ref to a file, and to SKILL.md itself, says to point at the folder', () => {
    const dir = temp.folder('filed', { 'SKILL.md': skillMd('filed', 'd') });
    const error = configErrorOf(() => loadSkillFolder(join(dir, 'SKILL.md'), REF));
    expect(error.expected).toBe(
      `"${join(dir, 'SKILL.md')}" is a file; expected a skill folder that holds SKILL.md; point the ref at the folder that holds SKILL.md, not at the file`,
    );
  });

  it('SKILL.md given directly (--overlay, skills.forced: no ref) says to give the folder, not to point a ref', () => {
    const dir = temp.folder('given', { 'SKILL.md': skillMd('given', 'd') });
    const error = configErrorOf(() => loadSkillFolder(join(dir, 'SKILL.md')));
    expect(error.expected).toBe(
      `"${join(dir, 'SKILL.md')}" is a file; expected a skill folder that holds SKILL.md; give the folder that holds SKILL.md, not the file`,
    );
  });

  it('errors inside SKILL.md point at SKILL.md, not at the ref', () => {
    const dir = temp.folder('bad', { 'SKILL.md': '---\nname: Bad\ndescription: d\n---\n' });
    expect(configErrorOf(() => loadSkillFolder(dir, REF))).toMatchObject({
      file: join(dir, 'SKILL.md'),
      line: 2,
      column: 7,
      path: 'name',
    });
  });

  it('refuses a folder with too many files (a ref at a repository root)', () => {
    const files: Record<string, string> = { 'SKILL.md': skillMd('big', 'd') };
    for (let index = 0; index <= MAX_SKILL_FILES; index += 1) files[`f${index}.txt`] = '';
    const dir = temp.folder('big', files);
    const error = configErrorOf(() => loadSkillFolder(dir, REF));
    expect(error).toMatchObject({ code: 'CONFIG_TOO_LARGE', file: REF.file, path: REF.path });
  });
});

describe('loadSkillFolder cache', () => {
  it('returns the cached package while nothing changed', () => {
    const dir = temp.folder('cached', { 'SKILL.md': skillMd('cached', 'd') });
    expect(loadSkillFolder(dir)).toBe(loadSkillFolder(dir));
  });

  it('re-reads SKILL.md after it changes', () => {
    const dir = temp.folder('edited', { 'SKILL.md': skillMd('edited', 'first') });
    const first = loadSkillFolder(dir);
    writeFileSync(join(dir, 'SKILL.md'), skillMd('edited', 'second'));
    // Force a distinct mtime: two writes within the file system's time resolution look the same.
    utimesSync(join(dir, 'SKILL.md'), new Date(), new Date(Date.now() + 5000));
    const second = loadSkillFolder(dir);
    expect(second).not.toBe(first);
    expect(second.description).toBe('second');
  });

  it('re-lists files after a file is added to a sub-folder', () => {
    const dir = temp.folder('grown', { 'SKILL.md': skillMd('grown', 'd'), 'sub/a.txt': 'a' });
    expect(loadSkillFolder(dir).files).toEqual(['sub/a.txt']);
    writeFileSync(join(dir, 'sub', 'b.txt'), 'b');
    utimesSync(join(dir, 'sub'), new Date(), new Date(Date.now() + 5000));
    expect(loadSkillFolder(dir).files).toEqual(['sub/a.txt', 'sub/b.txt']);
  });

  it('notices a sub-folder that was removed and a new one', () => {
    const dir = temp.folder('moved', { 'SKILL.md': skillMd('moved', 'd') });
    loadSkillFolder(dir);
    mkdirSync(join(dir, 'new'));
    writeFileSync(join(dir, 'new', 'x.txt'), 'x');
    utimesSync(dir, new Date(), new Date(Date.now() + 5000));
    expect(loadSkillFolder(dir).files).toEqual(['new/x.txt']);
  });

  it('does not cache failures', () => {
    const dir = temp.folder('later', { 'notes.md': 'x' });
    expect(() => loadSkillFolder(dir)).toThrow(ConfigError);
    writeFileSync(join(dir, 'SKILL.md'), skillMd('later', 'd'));
    expect(loadSkillFolder(dir).name).toBe('later');
  });
});
