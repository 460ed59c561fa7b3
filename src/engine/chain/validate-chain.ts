import { quoteCapped } from '../../config/cap-text.js';
import type { Locator } from '../../config/assert-format.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { collectConfigErrors, type ConfigError, throwConfigErrors } from '../../config/errors.js';
import { argumentNameProblems, type ParametersOf } from '../revision/argument-names.js';
import { checkTemplatesClosed } from '../revision/template-checks.js';
import type { ChainSpec, ChainStepSpec } from '../revision/types.js';
import { chainStateNameProblems } from './chain-state-names.js';
import { CHAIN_END } from './chain-targets.js';
import { failureAction, POLICY_KEYS } from './failure-policy.js';

/**
 * Load-time rules of a chain (docs/workflows.md, Tool chains): known tools, unique ids (`end` is reserved),
 * closed templates in inputs, `next` that resolves, on_failure keys that the action uses, and
 * state keys templates can read (chainStateNameProblems; `ownParameters` are the chain tool's).
 * `checked(index)` leaves out the steps with a format problem (reported already; an unknown key alone
 * leaves its step checked, docs/workflows.md): their id and
 * tool still count as targets of `next` and as ids taken, the rest of them is not read.
 */
export function validateChainSpec(
  chain: ChainSpec,
  callable: ReadonlySet<string>,
  locate: Locator,
  parametersOf: ParametersOf = () => undefined,
  ownParameters?: unknown,
  checked: (index: number) => boolean = () => true,
): void {
  // Every problem of the chain is reported in one pass (validate's promise for a file).
  const problems: ConfigError[] = [];
  const ids = new Set<string>();
  const written = (value: unknown): string[] => (typeof value === 'string' ? [value] : []);
  chain.steps.forEach((step, index) => {
    if (!checked(index)) {
      for (const id of written((step as { id?: unknown } | null)?.id)) ids.add(id);
      return;
    }
    if (!callable.has(step.tool)) {
      problems.push(
        locate(['steps', index, 'tool'], `unknown tool ${quoteCapped(step.tool)}; expected an agent tool or a built-in${didYouMean(step.tool, callable)}`),
      );
    }
    if (step.id !== undefined) {
      if (step.id === CHAIN_END)
        problems.push(locate(['steps', index, 'id'], `step id "${CHAIN_END}" is reserved: "next: ${CHAIN_END}" ends the chain; choose another id`));
      else if (ids.has(step.id)) problems.push(locate(['steps', index, 'id'], `duplicate step id ${quoteCapped(step.id)}`));
      ids.add(step.id);
    }
    collectConfigErrors(problems, () => checkTemplatesClosed(step.inputs, ['steps', index, 'inputs'], locate));
    if (callable.has(step.tool)) {
      problems.push(...argumentNameProblems(step.inputs, step.tool, parametersOf(step.tool), ['steps', index, 'inputs'], 'inputs', locate));
    }
    problems.push(...failurePolicyProblems(step, index, locate));
  });
  const checkedSteps = chain.steps.map((step, index) => (checked(index) ? step : ({} as ChainStepSpec)));
  problems.push(...chainStateNameProblems({ ...chain, steps: checkedSteps }, ownParameters, locate));
  const targets = new Set<string>([...ids, ...chain.steps.flatMap((step) => written((step as { tool?: unknown } | null)?.tool))]);
  chain.steps.forEach((step, index) => {
    if (!checked(index)) return;
    for (const branch of ['on_success', 'on_failure'] as const) {
      const next = step[branch]?.next;
      if (next !== undefined && next !== CHAIN_END && !targets.has(next)) {
        problems.push(
          locate(
            ['steps', index, branch, 'next'],
            `"next" names no step: ${quoteCapped(next)} is neither a step id nor a step's tool (nor "${CHAIN_END}", which ends the chain)`,
          ),
        );
      }
    }
  });
  throwConfigErrors(problems);
}

/** The on_failure keys the chosen action never reads (`{action: stop, max_retries: 3}`), each one, and a `next` retry never takes. */
function failurePolicyProblems(step: ChainStepSpec, index: number, locate: Locator): ConfigError[] {
  const policy = step.on_failure;
  if (!policy) return [];
  const action = failureAction(policy);
  const allowed = POLICY_KEYS[action];
  // Without `action`, `next` decides it (docs/workflows.md): the message says which way it went.
  const defaulted = `the default action ${quoteCapped(action)} (${policy.next === undefined ? 'no "next" given' : '"next" is given'})`;
  const why = policy.action === undefined ? defaulted : `action ${quoteCapped(action)}`;
  // Every stray key at once, as a flow component's (docs/cli.md, validate).
  // A key no action uses (`foo`) is the format check's unknown key, said there.
  const anyActionKeys = Object.values(POLICY_KEYS).flat();
  const problems = Object.keys(policy)
    .filter((key) => key !== 'action' && !allowed.includes(key) && anyActionKeys.includes(key))
    .map((key) => {
      const users = Object.entries(POLICY_KEYS)
        .filter(([, keys]) => keys.includes(key))
        .map(([name]) => quoteCapped(name));
      return locate(['steps', index, 'on_failure', key], `${quoteCapped(key)} does not apply to ${why}; it is used by action ${users.join(' or ')}`, true);
    });
  if (action === 'retry' && policy.next !== undefined && policy.continue_on_max_retries !== true) {
    problems.push(
      locate(
        ['steps', index, 'on_failure', 'next'],
        '"next" with action "retry" is used only when retries run out and continue_on_max_retries is true; add continue_on_max_retries: true or drop "next"',
        true,
      ),
    );
  }
  return problems;
}
