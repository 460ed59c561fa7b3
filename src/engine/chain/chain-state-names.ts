import type { Locator } from '../../config/assert-format.js';
import { collectConfigErrors, type ConfigError } from '../../config/errors.js';
import { listedArgumentNames } from '../revision/argument-names.js';
import { checkBindingName, forEachString, templateNames } from '../revision/template-checks.js';
import type { ChainSpec } from '../revision/types.js';

/** The name a chain template reads as the whole state (docs/workflows.md, Tool chains). */
const WHOLE_STATE = 'state';

/**
 * Load-time rules for the keys of a chain's state (docs/workflows.md, Tool chains): each
 * `map_outputs` target is a name a template can read (the rule of a plan's `returns`), and
 * when the state can hold a key named `state` (a parameter of the chain's tool, or a
 * `map_outputs` target), a bare `{{ state }}` is refused: it always reads the whole state, so
 * it would never be that key (`{{ state.state }}` is).
 */
export function chainStateNameProblems(chain: ChainSpec, ownParameters: unknown, locate: Locator): ConfigError[] {
  const problems: ConfigError[] = [];
  let stateKey = listedArgumentNames(ownParameters).includes(WHOLE_STATE) ? `the tool's argument "${WHOLE_STATE}"` : undefined;
  chain.steps.forEach((step, index) => {
    for (const [source, target] of Object.entries(step.on_success?.map_outputs ?? {})) {
      const at = ['steps', index, 'on_success', 'map_outputs', source];
      collectConfigErrors(problems, () => checkBindingName(target, at, 'map_outputs target', locate));
      if (target === WHOLE_STATE) stateKey ??= `the map_outputs target "${WHOLE_STATE}" of steps[${index}]`;
    }
  });
  if (!stateKey) return problems;
  chain.steps.forEach((step, index) =>
    forEachString(step.inputs, ['steps', index, 'inputs'], (text, at) => {
      if (!templateNames(text).includes(WHOLE_STATE)) return;
      problems.push(
        locate(at, `"{{ ${WHOLE_STATE} }}" reads the whole chain state, never ${stateKey}; write {{ ${WHOLE_STATE}.${WHOLE_STATE} }} to read that key`),
      );
    }),
  );
  return problems;
}
