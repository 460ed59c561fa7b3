import { dirname, resolve } from 'node:path';
import type { Locator } from '../config/assert-format.js';
import { ConfigError } from '../config/errors.js';
import { joinPaths } from '../config/format-path.js';
import { formatPath } from '../config/source.js';
import { duplicateSkillName } from './duplicate-skill-name.js';
import { loadSkillFolder } from './load-skill-folder.js';
import type { SkillEntry, SkillReference } from './skill-entry.js';
import { normaliseSkillBody, validateSkillMeta } from './skill-meta.js';
import type { SkillPackage } from './skill-package.js';

/** What makes up a run's skills (docs/skills.md): suite-forced folders, the revision's list, an overlay. */
export interface DeliveredSkillsInput {
  /** Suite config `skills.forced`: skill folders (absolute, or relative to `configFile`, else the cwd). */
  forced?: readonly string[];
  /** The revision's `agent.skills`, after the delta. */
  revision?: readonly SkillEntry[];
  /** Suite config `skills.overlay`: skill folders. */
  overlay?: readonly string[];
  /** The agent build file, for errors and as the source of inline skills. */
  revisionFile: string;
  /** The suite config file, so a bad forced/overlay folder points at `skills.forced[i]` there. */
  configFile?: string;
}

/** A skill that was listed but not delivered, and why. */
export interface SkippedSkill {
  name: string;
  source: string;
  reason: string;
}

/** The delivered set in delivery order, and what was left out. */
export interface DeliveredSkills {
  delivered: SkillPackage[];
  skipped: SkippedSkill[];
}

/**
 * Turns one agent-listed skill into a package: an inline entry as is (dir null, no files), a
 * `ref` by loading its folder. `at` locates the entry (`agent.skills[2]`); a bad ref is
 * reported at `<at.path>.ref`.
 */
export function resolveSkillEntry(entry: SkillEntry, at: SkillReference): SkillPackage {
  const locate = entryLocator(at);
  // Keys set to undefined (objects built in code) count as absent, as they would in YAML.
  const given = Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
  if (given.ref !== undefined) {
    const extra = Object.keys(given).find((key) => key !== 'ref');
    if (extra) throw locate([extra], 'a skill given by "ref" takes no other keys; the folder\'s SKILL.md holds its name and description');
    if (typeof given.ref !== 'string' || given.ref === '') throw locate(['ref'], 'expected "ref" to be a skill folder path');
    // Refs are relative to the file that lists them; the build loader has usually made them absolute already.
    return loadSkillFolder(resolve(dirname(at.file), given.ref), { ...at, path: joinPaths(at.path ?? '', 'ref') });
  }
  if (given.name === undefined && given.description === undefined && given.body === undefined) {
    throw locate([], 'expected an inline skill {name, description, body} or {ref: <folder>}');
  }
  const meta = validateSkillMeta(given, locate, ['body']);
  if (entry.body !== undefined && typeof entry.body !== 'string') {
    throw locate(['body'], 'expected "body" to be a Markdown string');
  }
  return Object.freeze({
    ...meta,
    body: normaliseSkillBody(entry.body ?? ''),
    dir: null,
    files: Object.freeze([]),
    source: at.file,
  });
}

/** Where a candidate skill comes from, as a skipped skill's reason names it. */
type Origin = 'forced' | "build's" | 'overlay';

/**
 * The delivered set: forced + revision + overlay, de-duplicated by name keeping the first
 * (so a forced skill wins over the revision's skill of the same name, and the revision's over
 * the overlay's). Each dropped duplicate is listed in `skipped`, its reason naming the kept
 * skill's origin and source. Two skills of one name in the revision are an error, located at
 * the second (a build cannot hold them). A skill that cannot be loaded is an error, never a
 * silent skip.
 */
export function resolveDeliveredSkills(input: DeliveredSkillsInput): DeliveredSkills {
  const candidates: Array<{ skill: SkillPackage; origin: Origin }> = [];
  // Suite config paths are relative to the config file (docs/formats.md, Suite config), else to the cwd.
  const base = input.configFile ? dirname(input.configFile) : process.cwd();
  const fromConfig = (key: 'forced' | 'overlay', dir: string, index: number): SkillPackage =>
    loadSkillFolder(resolve(base, dir), input.configFile ? { file: input.configFile, path: `skills.${key}[${index}]` } : undefined);

  (input.forced ?? []).forEach((dir, index) => candidates.push({ skill: fromConfig('forced', dir, index), origin: 'forced' }));
  const names = new Map<string, number>();
  (input.revision ?? []).forEach((entry, index) => {
    const at = { file: input.revisionFile, path: `agent.skills[${index}]` };
    const skill = resolveSkillEntry(entry, at);
    const first = names.get(skill.name);
    if (first !== undefined) throw entryLocator(at)([entry.ref !== undefined ? 'ref' : 'name'], duplicateSkillName(skill.name, first, entry.ref !== undefined));
    names.set(skill.name, index);
    candidates.push({ skill, origin: "build's" });
  });
  (input.overlay ?? []).forEach((dir, index) => candidates.push({ skill: fromConfig('overlay', dir, index), origin: 'overlay' }));

  const delivered: SkillPackage[] = [];
  const skipped: SkippedSkill[] = [];
  const kept = new Map<string, { skill: SkillPackage; origin: Origin }>();
  for (const candidate of candidates) {
    const { skill } = candidate;
    const first = kept.get(skill.name);
    if (first) {
      // The same folder listed in two places has one source: say so rather than name it twice.
      const where = first.skill.source === skill.source ? 'the same folder, listed twice' : first.skill.source;
      skipped.push({ name: skill.name, source: skill.source, reason: `duplicate of the ${first.origin} skill (${where})` });
      continue;
    }
    kept.set(skill.name, candidate);
    delivered.push(skill);
  }
  return { delivered, skipped };
}

/** Errors for an entry's keys, located at `<at.path>.<key>` in the file that lists the entry. */
function entryLocator(at: SkillReference): Locator {
  return (path, expected) => new ConfigError({ ...at, path: joinPaths(at.path ?? '', formatPath(path)) || undefined }, expected);
}
