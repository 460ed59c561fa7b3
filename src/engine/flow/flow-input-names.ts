import { quoteCapped, shownNames } from '../../config/cap-text.js';
import type { Locator } from '../../config/assert-format.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { collectConfigErrors, type ConfigError } from '../../config/errors.js';
import { checkBindingName } from '../revision/template-checks.js';
import type { ComponentSpec } from '../revision/types.js';
import { parseIOKey } from './io-key.js';

// The names a flow's inputs read and bind, checked at load (docs/workflows.md, Load-time rules).

/**
 * A `conversation_history:<component>` key naming no agent component: only those converse, so
 * the state never holds it and every run would stop with FLOW_MISSING_INPUT (docs/workflows.md).
 */
export function conversationProblem(key: { target?: string; path: string[]; text: string }, conversations: readonly string[] | undefined): string | undefined {
  if (key.target !== 'conversation_history' || conversations === undefined) return undefined;
  const [first = ''] = key.path;
  if (conversations.includes(first)) return undefined;
  return `${quoteCapped(key.text)} names ${quoteCapped(first)}, which is not an agent component of the flow (only those have a conversation), so the flow state never holds it; expected one of: ${shownNames(conversations) || '(none)'}${didYouMean(first, conversations)}`;
}

/**
 * A plan component's inputs are its plan's first variables: a name no template can read is
 * refused, as a constant's is, and so is a name two inputs give (the second would silently win).
 * Only the inputs `sound` vouches for are read.
 */
export function planInputProblems(
  component: ComponentSpec,
  at: Array<string | number>,
  locate: Locator,
  problems: ConfigError[],
  sound: (index: number) => boolean = () => true,
): void {
  const given = new Map<string, number>();
  (component.inputs ?? []).forEach((raw, index) => {
    // An input with a format problem of its own is said by it alone.
    if (!sound(index)) return;
    const key = parseIOKey(raw);
    if (key.name === '' || (typeof raw === 'object' && raw.from === undefined && !key.hasLiteral)) return;
    const named = typeof raw === 'object' && raw.as !== undefined;
    collectConfigErrors(problems, () => checkBindingName(key.name, [...at, 'inputs', index, ...(named ? ['as'] : [])], 'plan input', locate));
    const first = given.get(key.name);
    if (first !== undefined) {
      problems.push(
        locate([...at, 'inputs', index], `two inputs give variable ${quoteCapped(key.name)} (inputs[${first}] and inputs[${index}]); rename one with "as"`),
      );
    } else given.set(key.name, index);
  });
}
