import { dirname, isAbsolute, resolve } from 'node:path';
import { documentLocator, memoryLocator, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import { duplicateSkillName } from '../../skills/duplicate-skill-name.js';
import { loadSkillFolder } from '../../skills/load-skill-folder.js';
import { hashValue } from '../../config/canonical-json.js';
import { SourceDocument } from '../../config/source.js';
import type { AgentBuild, Revision } from './types.js';
import { validateBuild } from './validate-build.js';
import { buildAgent } from './build-agent.js';
import { checkExternalCommandFiles } from './external-command-files.js';

/** Loads and strictly validates an agent build file (YAML or JSON). */
export function loadAgentBuild(file: string): Revision {
  return parseAgentBuild(SourceDocument.read(file));
}

/** Validates a parsed document as an agent build; skill refs become absolute paths. */
export function parseAgentBuild(doc: SourceDocument): Revision {
  const locate = documentLocator(doc);
  // A scenario file given where a build is expected (`test-run --agent x.scenario.yaml`): said
  // once, not as one "unknown key" per scenario field (the mirror of run given a build).
  if (isScenarioShaped(doc.value)) {
    throw locate(
      [],
      'is a scenario file (name, agent and inputs at the top, or a scenarios: list), not an agent build (id and agent at the top); to run it, use agentcheck run FILE',
    );
  }
  validateBuild(doc.value, locate);
  return toRevision(doc.value, doc.file, locate);
}

/** Validates an in-memory build (library callers, MCP); `source` names it in errors. */
export function revisionFromValue(value: unknown, source = '<inline>', baseDir = process.cwd()): Revision {
  const copy = structuredClone(value);
  const locate = memoryLocator(source);
  validateBuild(copy, locate);
  return toRevision(copy, resolve(baseDir, '<inline>'), locate);
}

/** A mapping without `id` that holds a scenarios list, or a name beside inputs or an agent path. */
function isScenarioShaped(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value) || 'id' in value) return false;
  const keys = value as Record<string, unknown>;
  return 'scenarios' in keys || ('name' in keys && ('inputs' in keys || typeof keys.agent === 'string'));
}

function toRevision(build: AgentBuild, source: string, locate: Locator): Revision {
  // Hash before paths are made absolute, so the same build hashes the same on every machine.
  const hash = hashValue(build);
  absolutizeSkillRefs(build, dirname(source));
  checkSkillRefs(build, locate);
  checkExternalCommandFiles(build, dirname(source), locate);
  return { build, source, hash };
}

/**
 * Every skill `ref` must name a skill folder: checked at load, so a bad ref is invalid input
 * (exit 2) rather than a failed run. A problem inside a SKILL.md points at that file. A ref whose
 * skill has the name of an earlier entry is refused at the ref (validateBuild compared the inline
 * names): a build cannot hold two skills of one name (docs/skills.md).
 */
export function checkSkillRefs(build: AgentBuild, locate: Locator): void {
  // Each ref on its own, so one pass reports every missing folder and every broken SKILL.md.
  const problems: ConfigError[] = [];
  const names = new Map<string, number>();
  (buildAgent(build).skills ?? []).forEach((skill, index) => {
    collectConfigErrors(problems, () => {
      const ref = skill.ref;
      let name = skill.name;
      if (ref !== undefined) {
        try {
          name = loadSkillFolder(ref).name;
        } catch (error) {
          if (error instanceof ConfigError && error.code === 'CONFIG_NOT_FOUND') throw locate(['agent', 'skills', index, 'ref'], error.expected);
          throw error;
        }
      }
      if (name === undefined) return;
      const first = names.get(name);
      if (first === undefined) names.set(name, index);
      else throw locate(['agent', 'skills', index, ref !== undefined ? 'ref' : 'name'], duplicateSkillName(name, first, ref !== undefined));
    });
  });
  throwConfigErrors(problems);
}

/** Skill refs are relative to the file that holds them; make them absolute once, at load. */
export function absolutizeSkillRefs(build: AgentBuild, baseDir: string): void {
  for (const skill of buildAgent(build).skills ?? []) {
    if (skill.ref !== undefined && !isAbsolute(skill.ref)) skill.ref = resolve(baseDir, skill.ref);
  }
}
