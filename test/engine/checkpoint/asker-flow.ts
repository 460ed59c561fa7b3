import { revisionFromValue } from '../../../src/engine/revision/load-build.js';

/**
 * A flow of one human_input component named `component`, routed back to itself until approved:
 * two of these with other component names are two builds whose checkpoints cannot fit each other.
 */
export function askerRevision(id: string, component: string) {
  return revisionFromValue({
    id,
    agent: { name: 'Asker', llm: { provider: 'scripted', model: 's' } },
    flow: {
      entry_point: component,
      components: [{ name: component, type: 'human_input' }],
      routers: [{ from: component, condition: { input: `context:${component}.decision`, routes: { approve: 'end', default_route: component } } }],
    },
  });
}
