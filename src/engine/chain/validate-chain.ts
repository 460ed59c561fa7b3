import { quoteCapped } from '../../config/cap-text.js';
import type { Locator } from '../../config/assert-format.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { collectConfigErrors, type ConfigError, throwConfigErrors } from '../../config/errors.js';
import { SOUND_FORMAT, type PartFormat } from '../../config/format-part.js';
import type { PathSegments } from '../../config/source.js';
import { argumentNameProblems, type ParametersOf } from '../revision/argument-names.js';
import { checkTemplatesClosed } from '../revision/template-checks.js';
import type { ChainSpec, ChainStepSpec } from '../revision/types.js';
import { chainStateNameProblems } from './chain-state-names.js';
import { CHAIN_END } from './chain-targets.js';
import { ANY_ACTION_KEYS, failureAction, POLICY_KEYS } from './failure-policy.js';

/**
 * Load-time rules of a chain (docs/workflows.md, Tool chains): known tools, unique ids (`end` is reserved),
 * closed templates in inputs, `next` that resolves, on_failure keys that the action uses, and
 * state keys templates can read (chainStateNameProblems; `ownParameters` are the chain tool's).
 * With format problems (`format`, paths relative to `chain`), each step is checked key by key on
 * the values the format leaves valid, beside them (docs/cli.md, validate): a bad value of one key
 * hides no problem of another, and an on_failure key its action does not use is said whatever it
 * holds. A step's id and tool, when written as text, count as targets of `next` and as ids taken.
 */
export function validateChainSpec(
  chain: ChainSpec,
  callable: ReadonlySet<string>,
  locate: Locator,
  parametersOf: ParametersOf = () => undefined,
  ownParameters?: unknown,
  format: PartFormat = SOUND_FORMAT,
): void {
  // Every problem of the chain is reported in one pass (validate's promise for a file).
  const problems: ConfigError[] = [];
  const ids = new Set<string>();
  const written = (value: unknown): string[] => (typeof value === 'string' ? [value] : []);
  // Not a mapping (an empty list item is null): its format problem says so, and nothing else is read.
  const typed = (index: number) => format.typed(['steps', index]);
  chain.steps.forEach((step, index) => {
    if (!typed(index)) {
      for (const id of written((step as { id?: unknown } | null)?.id)) ids.add(id);
      return;
    }
    const valid = (...path: PathSegments) => format.valid(['steps', index, ...path]);
    const sound = (...path: PathSegments) => format.validBesideUnknownKeys(['steps', index, ...path]);
    const known = valid('tool') && callable.has(step.tool);
    if (valid('tool') && !known) {
      problems.push(
        locate(['steps', index, 'tool'], `unknown tool ${quoteCapped(step.tool)}; expected an agent tool or a built-in${didYouMean(step.tool, callable)}`),
      );
    }
    if (step.id !== undefined && valid('id')) {
      if (step.id === CHAIN_END)
        problems.push(locate(['steps', index, 'id'], `step id "${CHAIN_END}" is reserved: "next: ${CHAIN_END}" ends the chain; choose another id`));
      else if (ids.has(step.id)) problems.push(locate(['steps', index, 'id'], `duplicate step id ${quoteCapped(step.id)}`));
    }
    for (const id of written(step.id)) ids.add(id);
    if (sound('inputs')) {
      collectConfigErrors(problems, () => checkTemplatesClosed(step.inputs, ['steps', index, 'inputs'], locate));
      if (known) problems.push(...argumentNameProblems(step.inputs, step.tool, parametersOf(step.tool), ['steps', index, 'inputs'], 'inputs', locate));
    }
    if (step.on_failure !== undefined && format.typed(['steps', index, 'on_failure'])) problems.push(...failurePolicyProblems(step, index, valid, locate));
  });
  // The state's names, from the inputs and map_outputs the format leaves valid.
  const soundSteps = chain.steps.map((step, index): ChainStepSpec => {
    if (!typed(index)) return {} as ChainStepSpec;
    const sound = (...path: PathSegments) => format.validBesideUnknownKeys(['steps', index, ...path]);
    const mapOutputs = step.on_success?.map_outputs;
    return {
      ...step,
      inputs: sound('inputs') ? step.inputs : undefined,
      on_success: mapOutputs !== undefined && sound('on_success', 'map_outputs') ? { map_outputs: mapOutputs } : undefined,
    };
  });
  problems.push(...chainStateNameProblems({ ...chain, steps: soundSteps }, ownParameters, locate));
  const targets = new Set<string>([...ids, ...chain.steps.flatMap((step) => written((step as { tool?: unknown } | null)?.tool))]);
  chain.steps.forEach((step, index) => {
    if (!typed(index)) return;
    const valid = (...path: PathSegments) => format.valid(['steps', index, ...path]);
    for (const branch of ['on_success', 'on_failure'] as const) {
      if (!valid(branch, 'next')) continue;
      // A `next` the action does not take (or whose action is bad) is said once, by failurePolicyProblems.
      if (branch === 'on_failure' && !failureNextApplies(step, valid)) continue;
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

/**
 * The on_failure keys the chosen action never reads (`{action: stop, max_retries: 3}`), each one
 * whatever it holds (`max_retries: -1` is told it does not apply, not also its range: the caller
 * leaves out the format's problems under a key said here), and a `next` retry never takes. `valid`
 * says which of the step's values the format leaves valid: with a bad `action` no key is judged.
 */
function failurePolicyProblems(step: ChainStepSpec, index: number, valid: (...path: PathSegments) => boolean, locate: Locator): ConfigError[] {
  const policy = step.on_failure;
  if (!policy || !valid('on_failure', 'action')) return [];
  const action = failureAction(policy);
  const allowed = POLICY_KEYS[action];
  // Without `action`, `next` decides it (docs/workflows.md): the message says which way it went.
  const defaulted = `the default action ${quoteCapped(action)} (${policy.next === undefined ? 'no "next" given' : '"next" is given'})`;
  const why = policy.action === undefined ? defaulted : `action ${quoteCapped(action)}`;
  // Every stray key at once, as a flow component's (docs/cli.md, validate).
  // A key no action uses (`foo`) is the format check's unknown key, said there.
  const problems = Object.keys(policy)
    .filter((key) => key !== 'action' && !allowed.includes(key) && ANY_ACTION_KEYS.includes(key))
    .map((key) => {
      const users = Object.entries(POLICY_KEYS)
        .filter(([, keys]) => keys.includes(key))
        .map(([name]) => quoteCapped(name));
      return locate(['steps', index, 'on_failure', key], `${quoteCapped(key)} does not apply to ${why}; it is used by action ${users.join(' or ')}`, true);
    });
  if (action === 'retry' && policy.next !== undefined && !failureNextApplies(step, valid)) {
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

/**
 * Whether the step's on_failure takes its `next`: not with a bad `action` (which keys apply is not
 * known), nor with an action that never reads it, nor with `retry` unless continue_on_max_retries
 * is true (one that is no boolean is its own problem: whether it lets `next` in is not known).
 */
function failureNextApplies(step: ChainStepSpec, valid: (...path: PathSegments) => boolean): boolean {
  const policy = step.on_failure;
  if (!policy || !valid('on_failure', 'action')) return false;
  const action = failureAction(policy);
  if (!POLICY_KEYS[action].includes('next')) return false;
  return action !== 'retry' || !valid('on_failure', 'continue_on_max_retries') || policy.continue_on_max_retries === true;
}
