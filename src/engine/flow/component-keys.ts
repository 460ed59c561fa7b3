import { quoteCapped } from '../../config/cap-text.js';
import { withArticle } from '../../config/indefinite-article.js';
import { unknownKeyMessage } from '../../config/option-keys.js';
import type { ComponentSpec, ComponentType } from '../revision/types.js';

/** Keys each component type may have besides name and type. */
const TYPE_KEYS: Record<ComponentType, readonly string[]> = {
  agent: ['inputs', 'toolset', 'instructions', 'prompt', 'max_turns'],
  deterministic_step: ['tool_name', 'inputs'],
  human_input: ['inputs'],
  plan: ['plan', 'inputs'],
  end: [],
};
/** Every key some component type takes: another is unknown to all of them. */
const ANY_COMPONENT_KEYS = [...new Set(['name', 'type', ...Object.values(TYPE_KEYS).flat()])];

/**
 * Each key of a flow component that its type does not take, with what to say about it
 * (docs/workflows.md, Load-time rules): a key another type takes "does not apply", a key no type
 * takes is unknown; either way the keys listed are this type's own.
 */
export function strayComponentKeys(component: ComponentSpec): Array<[key: string, message: string]> {
  const allowed = ['name', 'type', ...TYPE_KEYS[component.type]];
  return Object.keys(component)
    .filter((key) => !allowed.includes(key))
    .map((stray) => [
      stray,
      ANY_COMPONENT_KEYS.includes(stray)
        ? `${quoteCapped(stray)} does not apply to ${withArticle(component.type)} component; it takes: ${allowed.join(', ')}`
        : unknownKeyMessage(stray, allowed),
    ]);
}
