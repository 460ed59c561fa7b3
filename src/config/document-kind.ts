import { describeValue } from './describe-value.js';
import type { SourceDocument } from './source.js';

/** What each kind of file is, as a message that refuses another value names it. */
export const FILE_KINDS = {
  agentBuild: 'an agent build (a mapping with id and agent or flow or external)',
  delta: 'a delta (a mapping with set or remove)',
  mocks: 'mocks (a mapping with http: [...])',
  approvals: 'approvals (a mapping with default or tools)',
} as const;

/**
 * Refuses a file that is not a mapping, naming the kind of file expected and what it holds
 * (`expected a delta (a mapping with set or remove), got an empty file`), so an empty file or a
 * list says which file it was read as, in run and test-run alike.
 */
export function assertMappingFile(doc: SourceDocument, kind: string, code?: string): void {
  const value = doc.value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return;
  // An empty or comments-only file parses as null.
  throw doc.error([], `expected ${kind}, got ${value === null ? 'an empty file' : describeValue(value)}`, code);
}
