import type { Locator } from '../../config/assert-format.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { validatePlanSpec } from '../plan/validate-plan.js';
import { BUILTIN_NAMES } from '../revision/schema.js';
import type { AgentBuild, ComponentSpec, ComponentType, FlowSpec, IOKey, ToolSpec } from '../revision/types.js';
import { BUILTIN_PARAMETERS } from '../tools/builtins/builtin-parameters.js';
import { IO_TARGETS, parseIOKey } from './io-key.js';
import { END } from './route.js';
import { validateStepArguments } from './validate-step-arguments.js';
import { buildAgent } from '../revision/build-agent.js';
import { withArticle } from '../../config/indefinite-article.js';

/** Keys each component type may have besides name and type. */
const TYPE_KEYS: Record<ComponentType, readonly string[]> = {
  agent: ['inputs', 'toolset', 'instructions', 'prompt', 'max_turns'],
  deterministic_step: ['tool_name', 'inputs'],
  human_input: ['inputs'],
  plan: ['plan', 'inputs'],
  end: [],
};

/** An IOKey reads one source: with both, `literal` would silently win over `from`. */
const FROM_AND_LITERAL = 'an input takes "from" (a state key) or "literal" (a fixed value), not both; remove one';

function hasFromAndLiteral(raw: IOKey): boolean {
  return typeof raw === 'object' && raw.from !== undefined && Object.hasOwn(raw, 'literal');
}

/** Context keys the engine writes itself, which a component name would overwrite. */
const RESERVED_NAMES = ['goal'];

/**
 * Load-time rules of a flow (docs/workflows.md, Flows): unique names, a known entry point, keys that fit
 * each component type, deterministic steps whose tool exists and whose inputs fit its schema,
 * toolsets of existing tools, well-formed IOKeys, one router per component that resolves, and
 * no component that no router reaches.
 */
export function validateFlowSpec(flow: FlowSpec, build: AgentBuild, locate: Locator): void {
  // Each component, input and router on its own: one pass reports every problem (docs/cli.md, validate).
  const problems: ConfigError[] = [];
  const names = new Map<string, number>();
  flow.components.forEach((component, index) => {
    const at = ['components', index, 'name'];
    if (names.has(component.name)) problems.push(locate(at, `duplicate component name "${component.name}"`));
    else if (RESERVED_NAMES.includes(component.name))
      problems.push(locate(at, `"${component.name}" is reserved (context:${component.name} holds the user's goal); pick another name`));
    else if (component.name === END && component.type !== 'end')
      problems.push(locate(at, `a component named "end" must have type end ("end" as a route target ends the flow)`));
    if (!names.has(component.name)) names.set(component.name, index);
  });
  if (!names.has(flow.entry_point)) {
    problems.push(locate(['entry_point'], `entry_point "${flow.entry_point}" names no component; expected one of: ${[...names.keys()].join(', ')}`));
  }
  const agentTools = new Map((buildAgent(build).tools ?? []).map((tool) => [tool.name, tool]));
  const callable = new Set<string>([...BUILTIN_NAMES, ...agentTools.keys()]);
  flow.components.forEach((component, index) => validateComponent(component, ['components', index], agentTools, callable, locate, problems));
  // Reachability is worked out only from a known entry point.
  validateRouters(flow, names, locate, problems, names.has(flow.entry_point));
  throwConfigErrors(problems);
}

function validateComponent(
  component: ComponentSpec,
  at: Array<string | number>,
  agentTools: ReadonlyMap<string, ToolSpec>,
  callable: ReadonlySet<string>,
  locate: Locator,
  problems: ConfigError[],
): void {
  const allowed = TYPE_KEYS[component.type];
  for (const stray of Object.keys(component).filter((key) => key !== 'name' && key !== 'type' && !allowed.includes(key))) {
    problems.push(
      locate(
        [...at, stray],
        `"${stray}" does not apply to ${withArticle(component.type)} component; it takes: ${['name', 'type', ...allowed].join(', ')}`,
        true,
      ),
    );
  }
  (component.inputs ?? []).forEach((raw, index) => {
    const key = parseIOKey(raw);
    const here = [...at, 'inputs', index];
    if (typeof raw === 'object' && raw.from === undefined && !key.hasLiteral) problems.push(locate(here, 'an input needs "from" (a state key) or "literal"'));
    else if (hasFromAndLiteral(raw)) problems.push(locate([...here, 'literal'], FROM_AND_LITERAL, true));
    else if (key.hasLiteral && typeof raw === 'object' && raw.as === undefined && raw.from === undefined)
      problems.push(locate(here, 'a literal input needs "as" (its name)'));
    else if (!key.hasLiteral && !(IO_TARGETS as readonly string[]).includes(key.target ?? '')) {
      problems.push(
        locate(here, `"${key.text}" reads from "${key.target}:", which is not a state channel; expected ${IO_TARGETS.map((t) => `${t}:<keys>`).join(' or ')}`),
      );
    }
  });
  if (component.type === 'deterministic_step') {
    const tool = component.tool_name;
    if (tool === undefined) problems.push(locate(at, 'a deterministic_step needs "tool_name"'));
    else if (!callable.has(tool))
      problems.push(locate([...at, 'tool_name'], `unknown tool "${tool}"; expected an agent tool or a built-in (${BUILTIN_NAMES.join(', ')})`));
    else {
      const spec = agentTools.get(tool);
      const builtin = spec ? spec.builtin : (tool as keyof typeof BUILTIN_PARAMETERS);
      const parameters = spec?.parameters ?? (builtin ? BUILTIN_PARAMETERS[builtin] : undefined);
      collectConfigErrors(problems, () => validateStepArguments(component, tool, parameters, at, locate));
    }
  }
  if (component.type === 'agent') {
    (component.toolset ?? []).forEach((tool, index) => {
      if (!callable.has(tool)) problems.push(locate([...at, 'toolset', index], `unknown tool "${tool}" in toolset; expected an agent tool or a built-in`));
    });
  }
  if (component.type === 'plan') {
    const plan = component.plan;
    if (!plan) problems.push(locate(at, 'a plan component needs "plan: {constants, steps}"'));
    else collectConfigErrors(problems, () => validatePlanSpec(plan, callable, (path, expected, atKey) => locate([...at, 'plan', ...path], expected, atKey)));
  }
}

function validateRouters(flow: FlowSpec, names: ReadonlyMap<string, number>, locate: Locator, problems: ConfigError[], checkReach: boolean): void {
  const known = (name: string) => name === END || names.has(name);
  const routed = new Map<string, number>();
  const edges = new Map<string, string[]>();
  const before = problems.length;
  (flow.routers ?? []).forEach((router, index) => {
    const at = ['routers', index];
    const from = names.get(router.from);
    if (from === undefined) return void problems.push(locate([...at, 'from'], `router "from" names no component: "${router.from}"`));
    if (flow.components[from].type === 'end')
      return void problems.push(locate([...at, 'from'], `"${router.from}" is an end component: the flow ends there, so it takes no router`));
    if (routed.has(router.from)) {
      return void problems.push(
        locate([...at, 'from'], `component "${router.from}" already has a router (routers[${routed.get(router.from)}]); use one conditional router instead`),
      );
    }
    routed.set(router.from, index);
    if ((router.to === undefined) === (router.condition === undefined))
      return void problems.push(locate(at, 'a router needs exactly one of "to" or "condition"'));
    if (router.to !== undefined && !known(router.to)) problems.push(locate([...at, 'to'], `router "to" names no component: "${router.to}"`));
    if (router.condition) {
      const input = parseIOKey(router.condition.input);
      if (hasFromAndLiteral(router.condition.input)) problems.push(locate([...at, 'condition', 'input', 'literal'], FROM_AND_LITERAL, true));
      else if (!(IO_TARGETS as readonly string[]).includes(input.target ?? ''))
        problems.push(locate([...at, 'condition', 'input'], `expected a state key such as "context:${router.from}.final_answer"`));
    }
    for (const [value, target] of Object.entries(router.condition?.routes ?? {})) {
      if (!known(target)) problems.push(locate([...at, 'condition', 'routes', value], `route "${value}" names no component: "${target}"`));
    }
    edges.set(router.from, router.to !== undefined ? [router.to] : Object.values(router.condition?.routes ?? {}));
  });
  flow.components.forEach((component, index) => {
    if (component.type !== 'end' && !routed.has(component.name)) {
      problems.push(locate(['components', index], `component "${component.name}" has no router; add {from: ${component.name}, to: <component or end>}`));
    }
  });
  // "Never reached" follows from the routers: only said when they are sound.
  if (!checkReach || problems.length > before) return;
  const reached = new Set<string>([flow.entry_point]);
  const queue = [flow.entry_point];
  while (queue.length) {
    for (const target of edges.get(queue.shift() as string) ?? []) {
      if (!reached.has(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
  }
  flow.components.forEach((component, index) => {
    if (!reached.has(component.name))
      problems.push(
        locate(['components', index], `component "${component.name}" is never reached: no router from the entry point "${flow.entry_point}" leads to it`),
      );
  });
}
