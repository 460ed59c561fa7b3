import type { Locator } from '../../config/assert-format.js';
import { checkTemplatesClosed } from '../revision/template-checks.js';
import type { ChainSpec } from '../revision/types.js';

/**
 * Load-time rules of a chain (docs/workflows.md, Tool chains): known tools, unique ids, closed templates in
 * inputs, `next` that resolves.
 */
export function validateChainSpec(chain: ChainSpec, callable: ReadonlySet<string>, locate: Locator): void {
  const ids = new Set<string>();
  chain.steps.forEach((step, index) => {
    if (!callable.has(step.tool)) {
      throw locate(['steps', index, 'tool'], `unknown tool "${step.tool}"; expected an agent tool or a built-in`);
    }
    if (step.id !== undefined) {
      if (ids.has(step.id)) throw locate(['steps', index, 'id'], `duplicate step id "${step.id}"`);
      ids.add(step.id);
    }
    checkTemplatesClosed(step.inputs, ['steps', index, 'inputs'], locate);
  });
  const targets = new Set<string>([...ids, ...chain.steps.map((step) => step.tool)]);
  chain.steps.forEach((step, index) => {
    for (const branch of ['on_success', 'on_failure'] as const) {
      const next = step[branch]?.next;
      if (next !== undefined && !targets.has(next)) {
        throw locate(['steps', index, branch, 'next'], `"next" names no step: "${next}" is neither a step id nor a step's tool`);
      }
    }
  });
}
