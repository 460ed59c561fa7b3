import { describeValue } from './describe-value.js';
import type { SourceDocument } from './source.js';

/** What each kind of file is, as a message that refuses another value names it. */
export const FILE_KINDS = {
  agentBuild: 'an agent build (a mapping with id and agent or flow or external)',
  delta: 'a delta (a mapping with set or remove)',
  mocks: 'mocks (a mapping with http: [...])',
  approvals: 'approvals (a mapping with default or tools)',
  inputs: 'inputs (a mapping with messages and an optional context)',
  script: "a script (a list of model responses, as a scenario's model.script)",
  scenarioFile: 'a scenario (a mapping with name, agent, inputs) or {scenarios: [...], defaults: {...}}',
  suiteConfig: 'a suite config (a mapping with scenarios, variants, repeat, ...; empty for none)',
} as const;

/**
 * Refuses a file that is not a mapping, naming the kind of file expected and what it holds
 * (`expected a delta (a mapping with set or remove), got an empty file`), so an empty file or a
 * list says which file it was read as, in run and test-run alike.
 */
export function assertMappingFile(doc: SourceDocument, kind: string, code?: string): void {
  const value = doc.value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return;
  refuseKind(doc, kind, code);
}

/** Refuses a file that is not a list (a `--script`), naming the kind of file expected and what it holds, as assertMappingFile does. */
export function assertListFile(doc: SourceDocument, kind: string, code?: string): void {
  if (!Array.isArray(doc.value)) refuseKind(doc, kind, code);
}

// The refusals of a whole file's kind: located at its first line, but about the file as a whole.
const kindRefusals = new WeakSet<object>();

/** The error refuses a file as a whole for its kind (a list or null where a mapping is read): a scenario naming that file is blamed for it. */
export function isFileKindRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && kindRefusals.has(error);
}

function refuseKind(doc: SourceDocument, kind: string, code: string | undefined): never {
  // An empty or comments-only file parses as null too, but holds nothing: said as such, not as null.
  // A file's text is not echoed: a scenario may name any readable file (`delta: ~/.npmrc`), whose
  // text would reach the CI log (docs/security.md, Hostile files).
  const got = doc.holdsNothing()
    ? 'an empty file'
    : typeof doc.value === 'string'
      ? `text (${doc.value.length} characters, not shown)`
      : describeValue(doc.value);
  const error = doc.error([], `expected ${kind}, got ${got}`, code);
  kindRefusals.add(error);
  throw error;
}
