import { isDeltaShape } from './delta-shape.js';
import { dirname, resolve } from 'node:path';
import { documentLocator, memoryLocator } from '../../config/assert-format.js';
import { hashValue } from '../../config/canonical-json.js';
import { assertMappingFile, FILE_KINDS } from '../../config/document-kind.js';
import { withKeptProblems } from '../../config/kept-problems.js';
import { SourceDocument } from '../../config/source.js';
import type { AgentBuild, Revision } from './types.js';
import { validateBuild } from './validate-build.js';
import { absolutizeSkillRefs } from './skill-refs.js';
import { assertPathArgument } from '../../config/path-argument.js';

/** Loads and strictly validates an agent build file (YAML or JSON). */
export function loadAgentBuild(file: string): Revision {
  assertPathArgument(file, 'loadAgentBuild', 'file', 'an agent file path');
  const doc = SourceDocument.read(file, { problems: 'keep' });
  return withKeptProblems(doc, parseAgentBuild);
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
  // A delta given as the build (`test-run --agent delta.yaml`): said once, not as its missing id and agent.
  if (isDeltaShape(doc.value)) {
    throw locate(
      [],
      "is a delta {set, remove}, not an agent build (id and agent at the top): a delta changes a build, given beside it (test-run --delta FILE, a scenario's delta:)",
    );
  }
  // An empty file or a list is told it is read as a build, not `expected object, got null`.
  assertMappingFile(doc, FILE_KINDS.agentBuild);
  validateBuild(doc.value, locate, dirname(doc.file), dirname(doc.file));
  return toRevision(doc.value, doc.file);
}

/** Validates an in-memory build (library callers, MCP); `source` names it in errors. */
export function revisionFromValue(value: unknown, source = '<inline>', baseDir = process.cwd()): Revision {
  assertPathArgument(source, 'revisionFromValue', 'source', 'a source name');
  assertPathArgument(baseDir, 'revisionFromValue', 'baseDir', 'a folder path');
  const copy = structuredClone(value);
  const locate = memoryLocator(source);
  validateBuild(copy, locate, baseDir, baseDir);
  return toRevision(copy, resolve(baseDir, '<inline>'));
}

/** A mapping without `id` that holds a scenarios list, or a name beside inputs or an agent path. */
function isScenarioShaped(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value) || 'id' in value) return false;
  const keys = value as Record<string, unknown>;
  return 'scenarios' in keys || ('name' in keys && ('inputs' in keys || typeof keys.agent === 'string'));
}

function toRevision(build: AgentBuild, source: string): Revision {
  // Hash before paths are made absolute, so the same build hashes the same on every machine.
  const hash = hashValue(build);
  // validateBuild checked the refs, beside the build's other problems.
  absolutizeSkillRefs(build, dirname(source));
  return { build, source, hash };
}
