import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSkillFolderCache } from '../../src/skills/load-skill-folder.js';
import { resolveDeliveredSkills, resolveSkillEntry } from '../../src/skills/resolve-skills.js';
import { skillMd, tempSkills, type TempSkills } from './temp-skills.js';
import { configErrorOf } from '../helpers/config-error.js';

let temp: TempSkills;
beforeEach(() => {
  temp = tempSkills();
  clearSkillFolderCache();
});
afterEach(() => temp.cleanup());

describe('resolveSkillEntry', () => {
  const at = { file: '/project/agents/bot.yaml', path: 'agent.skills[0]' };

  it('turns an inline entry into a package without a folder', () => {
    const skill = resolveSkillEntry({ name: 'triage', description: 'Sort tickets.', body: 'Step 1.\n\n' }, at);
    expect(skill).toEqual({
      name: 'triage',
      description: 'Sort tickets.',
      body: 'Step 1.',
      disable_model_invocation: false,
      dir: null,
      files: [],
      source: at.file,
    });
  });

  it('ignores keys set to undefined, as YAML would', () => {
    const skill = resolveSkillEntry({ name: 'x', description: 'd', ref: undefined, body: undefined }, at);
    expect(skill.body).toBe('');
  });

  it('loads a ref, relative to the file that lists it', () => {
    const dir = temp.folder('skills/build-an-agent', { 'SKILL.md': skillMd('build-an-agent', 'd'), 'x.md': '' });
    const listing = { file: join(temp.root, 'agents', 'bot.yaml'), path: 'agent.skills[0]' };
    const skill = resolveSkillEntry({ ref: '../skills/build-an-agent' }, listing);
    expect(skill).toMatchObject({ name: 'build-an-agent', dir, files: ['x.md'], source: join(dir, 'SKILL.md') });
  });

  it('a ref pointing nowhere is reported at <entry>.ref', () => {
    const error = configErrorOf(() => resolveSkillEntry({ ref: join(temp.root, 'gone') }, at));
    expect(error).toMatchObject({ code: 'CONFIG_NOT_FOUND', file: at.file, path: 'agent.skills[0].ref' });
  });

  it('rejects bad inline entries at the key that is wrong', () => {
    expect(configErrorOf(() => resolveSkillEntry({ name: 'Bad Name', description: 'd' }, at))).toMatchObject({
      file: at.file,
      path: 'agent.skills[0].name',
    });
    expect(configErrorOf(() => resolveSkillEntry({ name: 'ok' }, at)).path).toBe('agent.skills[0].description');
    expect(configErrorOf(() => resolveSkillEntry({ ref: '/x', name: 'ok' }, at)).expected).toMatch(/takes no other keys/);
    expect(configErrorOf(() => resolveSkillEntry({}, at))).toMatchObject({
      path: 'agent.skills[0]',
      expected: 'expected an inline skill {name, description, body} or {ref: <folder>}',
    });
    const body = configErrorOf(() => resolveSkillEntry({ name: 'x', description: 'd', body: 3 as unknown as string }, at));
    expect(body.path).toBe('agent.skills[0].body');
  });
});

describe('resolveDeliveredSkills', () => {
  it('delivers forced + revision + overlay in that order, keeping the first of each name', () => {
    const forced = temp.folder('forced/house-rules', { 'SKILL.md': skillMd('house-rules', 'forced copy') });
    const ref = temp.folder('skills/build-an-agent', { 'SKILL.md': skillMd('build-an-agent', 'revision copy') });
    const dupOfForced = temp.folder('skills/house-rules', { 'SKILL.md': skillMd('house-rules', 'revision copy') });
    const overlayNew = temp.folder('overlay/getting-started', { 'SKILL.md': skillMd('getting-started', 'overlay') });
    const overlayDup = temp.folder('overlay/build-an-agent', { 'SKILL.md': skillMd('build-an-agent', 'overlay copy') });
    const revisionFile = join(temp.root, 'agent.yaml');

    const result = resolveDeliveredSkills({
      forced: [forced],
      revision: [{ name: 'triage', description: 'inline' }, { ref }, { ref: dupOfForced }],
      overlay: [overlayNew, overlayDup],
      revisionFile,
    });

    expect(result.delivered.map((skill) => [skill.name, skill.description])).toEqual([
      ['house-rules', 'forced copy'],
      ['triage', 'inline'],
      ['build-an-agent', 'revision copy'],
      ['getting-started', 'overlay'],
    ]);
    expect(result.skipped).toEqual([
      { name: 'house-rules', source: join(dupOfForced, 'SKILL.md'), reason: `duplicate of the forced skill (${join(forced, 'SKILL.md')})` },
      { name: 'build-an-agent', source: join(overlayDup, 'SKILL.md'), reason: `duplicate of the build's skill (${join(ref, 'SKILL.md')})` },
    ]);
  });

  it('names the kept skill by origin, and never names one file as its own duplicate', () => {
    const folder = temp.folder('skills/tone', { 'SKILL.md': skillMd('tone', 'd') });
    const inline = resolveDeliveredSkills({ revision: [{ name: 'tone', description: 'inline' }], overlay: [folder], revisionFile: '/p/agent.yaml' });
    expect(inline.skipped).toEqual([{ name: 'tone', source: join(folder, 'SKILL.md'), reason: "duplicate of the build's skill (/p/agent.yaml)" }]);
    // One folder, forced and listed again by the build and the overlay.
    const twice = resolveDeliveredSkills({ forced: [folder], revision: [{ ref: folder }], overlay: [folder], revisionFile: '/p/agent.yaml' });
    expect(twice.delivered).toHaveLength(1);
    expect(twice.skipped.map((skipped) => skipped.reason)).toEqual([
      'duplicate of the forced skill (the same folder, listed twice)',
      'duplicate of the forced skill (the same folder, listed twice)',
    ]);
  });

  it('refuses two skills of one name in the revision, at the second: a build cannot hold them', () => {
    const error = configErrorOf(() =>
      resolveDeliveredSkills({
        revision: [
          { name: 'a', description: 'first' },
          { name: 'a', description: 'second' },
        ],
        revisionFile: '<inline>',
      }),
    );
    expect(error.path).toBe('agent.skills[1].name');
    expect(error.expected).toBe('duplicate skill name "a" (already used by agent.skills[0]); a build cannot hold two skills of one name');
  });

  it('returns empty lists when there are no skills', () => {
    expect(resolveDeliveredSkills({ forced: [], revision: [], overlay: [], revisionFile: 'a.yaml' })).toEqual({
      delivered: [],
      skipped: [],
    });
  });

  it('resolves suite folders relative to the config file and reports bad ones there', () => {
    temp.folder('suite/skills/tone', { 'SKILL.md': skillMd('tone', 'd') });
    const configFile = join(temp.root, 'suite', 'agentcheck.config.yaml');
    const result = resolveDeliveredSkills({ overlay: ['skills/tone'], revisionFile: 'a.yaml', configFile });
    expect(result.delivered[0]?.dir).toBe(join(temp.root, 'suite', 'skills', 'tone'));

    const error = configErrorOf(() => resolveDeliveredSkills({ forced: ['skills/tone', 'missing'], revisionFile: 'a.yaml', configFile }));
    expect(error).toMatchObject({ code: 'CONFIG_NOT_FOUND', file: configFile, path: 'skills.forced[1]' });
  });

  it('reports a revision ref pointing nowhere at agent.skills[i].ref in the revision file', () => {
    const error = configErrorOf(() =>
      resolveDeliveredSkills({
        revision: [{ name: 'a', description: 'd' }, { ref: join(temp.root, 'nowhere') }],
        revisionFile: '/project/agent.yaml',
      }),
    );
    expect(error).toMatchObject({ file: '/project/agent.yaml', path: 'agent.skills[1].ref' });
  });
});
