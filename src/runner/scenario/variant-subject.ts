import type { ScenarioRevisions } from './scenario-revision.js';
import type { LoadContext } from './load-context.js';
import type { ScenarioSpec } from './scenario-format.generated.js';

/**
 * Records a scenario whose build and delta loaded as a subject of the suite's variants, with
 * problems of its own or not, so they are checked against its build in the same pass (docs/cli.md,
 * validate). `sound` says which of its fields have no format problem: without a usable name, none.
 */
export function recordVariantSubject(
  context: LoadContext,
  fileId: string,
  spec: Pick<ScenarioSpec, 'name' | 'tags'>,
  sound: (key: string) => boolean,
  agentFile: string,
  { revision, withDelta }: ScenarioRevisions,
): void {
  const name = spec.name;
  if (!withDelta || !context.subjects || !sound('name') || typeof name !== 'string') return;
  const tags = sound('tags') ? (spec.tags ?? []) : [];
  context.subjects.push({ id: `${fileId}#${name}`, name, tags, agentFile, revision: revision ?? withDelta, beforeModel: !revision });
}
