import { quoteCapped } from '../../config/cap-text.js';
import { argumentNameProblems, type ParametersOf } from '../revision/argument-names.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { unknownKeyMessage } from '../../config/option-keys.js';
import { ownValue } from '../../config/own-key.js';
import type { Locator } from '../../config/assert-format.js';
import { SOUND_FORMAT, type PartFormat } from '../../config/format-part.js';
import { AgentcheckError, collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import { checkBindingName, checkTemplatesClosed } from '../revision/template-checks.js';
import type { PlanBlock, PlanSpec, PlanToolCall } from '../revision/types.js';
import { interpolate } from '../template/interpolate.js';
import { conditionProblem, forEachItemsProblem } from './system-call-values.js';

const SYSTEM_KEYS: Record<string, readonly string[]> = {
  for_each: ['name', 'items', 'each_item'],
  if_else: ['name', 'condition', 'if', 'else'],
};
/** The plan's system tools: in a plan these names always mean them, so no agent tool may take one. */
export const PLAN_SYSTEM_TOOLS: readonly string[] = Object.keys(SYSTEM_KEYS);
const CALL_KEYS = ['name', 'arguments', 'returns'];
/** Every key some kind of call takes: another is unknown to all of them. */
const ANY_CALL_KEYS = [...new Set([...CALL_KEYS, ...Object.values(SYSTEM_KEYS).flat()])];
const NESTED_BLOCKS = ['each_item', 'if', 'else'];

/**
 * `path` (inside a plan) is a call of a step or of a nested block: `steps[0].tools[1]`,
 * `steps[0].tools[1].each_item.tools[0]`. Its unknown keys are said by validatePlanSpec, with the
 * keys of the call's own kind.
 */
export function isPlanCallPath(path: PathSegments): boolean {
  if (path.length < 4 || path[0] !== 'steps' || typeof path[1] !== 'number') return false;
  for (let at = 2; at < path.length; at += 3) {
    if (path[at] !== 'tools' || typeof path[at + 1] !== 'number') return false;
    if (at + 2 === path.length) return true;
    if (!NESTED_BLOCKS.includes(String(path[at + 2]))) return false;
  }
  return false;
}

/**
 * Load-time rules of a STEP plan (docs/workflows.md, STEP plans): known tools, well-formed system tools (which
 * return nothing), keys that belong to the kind of call, closed templates, and constants that
 * only refer to constants above them. With format problems (`format`, paths relative to the
 * plan), each call is checked key by key beside them: a value with a problem of its own is said by
 * it alone, and a call whose kind is unknown (no valid `name`) is not checked.
 */
export function validatePlanSpec(
  plan: PlanSpec,
  callable: ReadonlySet<string>,
  locate: Locator,
  parametersOf: ParametersOf = () => undefined,
  format: PartFormat = SOUND_FORMAT,
): void {
  // Each constant and each call on its own: one pass reports every problem (docs/cli.md, validate).
  const problems: ConfigError[] = [];
  const constants = format.valid(['constants']) ? plan.constants : undefined;
  collectConfigErrors(problems, () => checkTemplatesClosed(constants, ['constants'], locate));
  collectConfigErrors(problems, () => checkConstantOrder(constants ?? {}, locate));
  for (const name of Object.keys(constants ?? {})) {
    collectConfigErrors(problems, () => checkBindingName(name, ['constants', name], 'constant', locate, true));
  }
  const steps = format.typed(['steps']) ? plan.steps : [];
  steps.forEach((step, index) => validateBlock(step, ['steps', index], { callable, parametersOf, format }, locate, problems));
  throwConfigErrors(problems);
}

interface CallScope {
  callable: ReadonlySet<string>;
  parametersOf: ParametersOf;
  format: PartFormat;
}

/** The calls of a step or a nested block at `at`, when its `tools` is a list. */
function validateBlock(block: PlanBlock, at: PathSegments, scope: CallScope, locate: Locator, problems: ConfigError[]): void {
  if (scope.format.typed([...at, 'tools'])) validateCalls(block.tools, [...at, 'tools'], scope, locate, problems);
}

function validateCalls(calls: PlanToolCall[], at: PathSegments, scope: CallScope, locate: Locator, problems: ConfigError[]): void {
  const { callable, parametersOf, format } = scope;
  calls.forEach((call, index) =>
    collectConfigErrors(problems, () => {
      const here = [...at, index];
      // Not a mapping, or with no valid name: its format problem says so, and its kind is unknown.
      if (!format.typed(here) || !format.valid([...here, 'name'])) return;
      const sound = (...path: PathSegments) => format.valid([...here, ...path]);
      // A required key is not also said missing when an unknown key beside it misspells it.
      const missing = (key: keyof PlanToolCall) => call[key] === undefined && !format.misspelt([...here, key]);
      // By own key: a tool named `constructor` is a call like any other.
      const system = ownValue(SYSTEM_KEYS, call.name);
      const allowed = system ?? CALL_KEYS;
      // Every misplaced key at once, as a flow component's (docs/cli.md, validate), whatever its
      // value holds; the call's own keys are still checked beside them.
      const kind = system ? `system tool ${call.name}` : `a call to ${call.name}`;
      for (const stray of Object.keys(call).filter((key) => !allowed.includes(key))) {
        const hint = stray === 'returns' ? ' (system tools return nothing)' : '';
        // A key no kind takes (`foo`) is unknown; the keys listed are still this kind's.
        const why = ANY_CALL_KEYS.includes(stray)
          ? `${quoteCapped(stray)} does not belong to ${kind}${hint}; expected keys: ${allowed.join(', ')}`
          : unknownKeyMessage(stray, allowed);
        problems.push(locate([...here, stray], why, true));
      }
      if (typeof call.returns === 'string' && allowed.includes('returns') && sound('returns')) {
        collectConfigErrors(problems, () => checkBindingName(call.returns as string, [...here, 'returns'], 'returns', locate));
      }
      // A key whose templates are malformed is said that way alone, not also judged by its value.
      const closed = new Set<string>();
      for (const key of ['arguments', 'items', 'condition'] as const) {
        if (allowed.includes(key) && sound(key) && collectConfigErrors(problems, () => checkTemplatesClosed(call[key], [...here, key], locate)))
          closed.add(key);
      }
      if (call.name === 'for_each') {
        const items: unknown = call.items;
        const itemsProblem = items === undefined ? null : forEachItemsProblem(items);
        if (missing('items')) problems.push(locate(here, 'for_each needs "items"'));
        else if (itemsProblem && closed.has('items')) problems.push(locate([...here, 'items'], itemsProblem));
        const each = call.each_item;
        if (missing('each_item')) problems.push(locate(here, 'for_each needs "each_item: {item_name, tools}"'));
        else if (each !== undefined && format.typed([...here, 'each_item'])) {
          if (sound('each_item', 'item_name')) {
            collectConfigErrors(problems, () => checkBindingName(each.item_name, [...here, 'each_item', 'item_name'], 'item_name', locate));
          }
          validateBlock(each, [...here, 'each_item'], scope, locate, problems);
        }
      } else if (call.name === 'if_else') {
        const conditionWhy = call.condition === undefined ? null : conditionProblem(call.condition);
        if (missing('condition')) problems.push(locate(here, 'if_else needs "condition"'));
        else if (conditionWhy && closed.has('condition')) problems.push(locate([...here, 'condition'], conditionWhy));
        if (missing('if')) problems.push(locate(here, 'if_else needs an "if" block'));
        for (const branch of ['if', 'else'] as const) {
          const block = call[branch];
          if (block !== undefined && format.typed([...here, branch])) validateBlock(block, [...here, branch], scope, locate, problems);
        }
      } else if (!callable.has(call.name)) {
        throw locate(
          [...here, 'name'],
          `unknown tool ${quoteCapped(call.name)}; expected an agent tool, a built-in, for_each or if_else${didYouMean(call.name, [...callable, ...PLAN_SYSTEM_TOOLS])}`,
        );
      } else if (sound('arguments')) {
        problems.push(...argumentNameProblems(call.arguments, call.name, parametersOf(call.name), [...here, 'arguments'], 'arguments', locate));
      }
    }),
  );
}

/** A name a template reads: `{{ name }}`, never a space, a dot or a leading digit (docs/workflows.md). */
/**
 * A constant naming itself or a later constant is a load error. Other names may be the plan's
 * arguments, known only at run time, so they are looked up as "unknown" and left to the run.
 */
function checkConstantOrder(constants: Record<string, unknown>, locate: Locator): void {
  const names = Object.keys(constants);
  // Each constant on its own: every bad reference in one pass (docs/cli.md, validate).
  const problems: ConfigError[] = [];
  names.forEach((name, index) => {
    const pending = new Set(names.slice(index));
    const forward = (variable: string) => {
      const why =
        variable === name
          ? 'a constant cannot refer to itself'
          : `${quoteCapped(variable)} is defined after ${quoteCapped(name)}; constants are resolved in order`;
      return locate(['constants', name], `constant ${quoteCapped(name)} refers to ${quoteCapped(variable)}: ${why}`);
    };
    try {
      interpolate(constants[name], (variable) => {
        if (pending.has(variable)) throw forward(variable);
        return { found: names.includes(variable), value: {} };
      });
    } catch (error) {
      if (error instanceof ConfigError) problems.push(error);
      // Only the forward reference is a load error; undefined names may be arguments.
      else if (!(error instanceof AgentcheckError) || error.code !== 'TEMPLATE_UNDEFINED') throw error;
    }
  });
  throwConfigErrors(problems);
}
