import type { Locator } from '../../config/assert-format.js';
import { validatePlanSpec } from '../plan/validate-plan.js';
import { BUILTIN_NAMES } from '../revision/schema.js';
import type { AgentBuild, ComponentSpec, ComponentType, FlowSpec, ToolSpec } from '../revision/types.js';
import { BUILTIN_PARAMETERS } from '../tools/builtins/builtin-parameters.js';
import { IO_TARGETS, parseIOKey } from './io-key.js';
import { END } from './route.js';
import { validateStepArguments } from './validate-step-arguments.js';
import { buildAgent } from '../revision/build-agent.js';

/** Keys each component type may have besides name and type. */
const TYPE_KEYS: Record<ComponentType, readonly string[]> = {
  agent: ['inputs', 'toolset', 'instructions', 'prompt', 'max_turns'],
  deterministic_step: ['tool_name', 'inputs'],
  human_input: ['inputs'],
  plan: ['plan', 'inputs'],
  end: [],
};

/** Context keys the engine writes itself, which a component name would overwrite. */
const RESERVED_NAMES = ['goal'];

/**
 * Load-time rules of a flow (docs/workflows.md, Flows): unique names, a known entry point, keys that fit
 * each component type, deterministic steps whose tool exists and whose inputs fit its schema,
 * toolsets of existing tools, well-formed IOKeys, one router per component that resolves, and
 * no component that no router reaches.
 */
export function validateFlowSpec(flow: FlowSpec, build: AgentBuild, locate: Locator): void {
  const names = new Map<string, number>();
  flow.components.forEach((component, index) => {
    if (names.has(component.name)) throw locate(['components', index, 'name'], `duplicate component name "${component.name}"`);
    if (RESERVED_NAMES.includes(component.name))
      throw locate(['components', index, 'name'], `"${component.name}" is reserved (context:${component.name} holds the user's goal); pick another name`);
    if (component.name === END && component.type !== 'end')
      throw locate(['components', index, 'name'], `a component named "end" must have type end ("end" as a route target ends the flow)`);
    names.set(component.name, index);
  });
  if (!names.has(flow.entry_point)) {
    throw locate(['entry_point'], `entry_point "${flow.entry_point}" names no component; expected one of: ${[...names.keys()].join(', ')}`);
  }
  const agentTools = new Map((buildAgent(build).tools ?? []).map((tool) => [tool.name, tool]));
  const callable = new Set<string>([...BUILTIN_NAMES, ...agentTools.keys()]);
  flow.components.forEach((component, index) => validateComponent(component, ['components', index], agentTools, callable, locate));
  validateRouters(flow, names, locate);
}

function validateComponent(
  component: ComponentSpec,
  at: Array<string | number>,
  agentTools: ReadonlyMap<string, ToolSpec>,
  callable: ReadonlySet<string>,
  locate: Locator,
): void {
  const allowed = TYPE_KEYS[component.type];
  const stray = Object.keys(component).find((key) => key !== 'name' && key !== 'type' && !allowed.includes(key));
  if (stray)
    throw locate([...at, stray], `"${stray}" does not apply to a ${component.type} component; it takes: ${['name', 'type', ...allowed].join(', ')}`, true);
  (component.inputs ?? []).forEach((raw, index) => {
    const key = parseIOKey(raw);
    const here = [...at, 'inputs', index];
    if (typeof raw === 'object' && raw.from === undefined && !key.hasLiteral) throw locate(here, 'an input needs "from" (a state key) or "literal"');
    if (key.hasLiteral && typeof raw === 'object' && raw.as === undefined && raw.from === undefined)
      throw locate(here, 'a literal input needs "as" (its name)');
    if (!key.hasLiteral && !(IO_TARGETS as readonly string[]).includes(key.target ?? '')) {
      throw locate(
        here,
        `"${key.text}" reads from "${key.target}:", which is not a state channel; expected ${IO_TARGETS.map((t) => `${t}:<keys>`).join(' or ')}`,
      );
    }
  });
  if (component.type === 'deterministic_step') {
    const tool = component.tool_name;
    if (tool === undefined) throw locate(at, 'a deterministic_step needs "tool_name"');
    if (!callable.has(tool)) throw locate([...at, 'tool_name'], `unknown tool "${tool}"; expected an agent tool or a built-in (${BUILTIN_NAMES.join(', ')})`);
    const spec = agentTools.get(tool);
    const builtin = spec ? spec.builtin : (tool as keyof typeof BUILTIN_PARAMETERS);
    const parameters = spec?.parameters ?? (builtin ? BUILTIN_PARAMETERS[builtin] : undefined);
    validateStepArguments(component, tool, parameters, at, locate);
  }
  if (component.type === 'agent') {
    (component.toolset ?? []).forEach((tool, index) => {
      if (!callable.has(tool)) throw locate([...at, 'toolset', index], `unknown tool "${tool}" in toolset; expected an agent tool or a built-in`);
    });
  }
  if (component.type === 'plan') {
    if (!component.plan) throw locate(at, 'a plan component needs "plan: {constants, steps}"');
    validatePlanSpec(component.plan, callable, (path, expected, atKey) => locate([...at, 'plan', ...path], expected, atKey));
  }
}

function validateRouters(flow: FlowSpec, names: ReadonlyMap<string, number>, locate: Locator): void {
  const known = (name: string) => name === END || names.has(name);
  const routed = new Map<string, number>();
  const edges = new Map<string, string[]>();
  (flow.routers ?? []).forEach((router, index) => {
    const from = names.get(router.from);
    if (from === undefined) throw locate(['routers', index, 'from'], `router "from" names no component: "${router.from}"`);
    if (flow.components[from].type === 'end')
      throw locate(['routers', index, 'from'], `"${router.from}" is an end component: the flow ends there, so it takes no router`);
    if (routed.has(router.from))
      throw locate(
        ['routers', index, 'from'],
        `component "${router.from}" already has a router (routers[${routed.get(router.from)}]); use one conditional router instead`,
      );
    routed.set(router.from, index);
    if ((router.to === undefined) === (router.condition === undefined)) throw locate(['routers', index], 'a router needs exactly one of "to" or "condition"');
    if (router.to !== undefined && !known(router.to)) throw locate(['routers', index, 'to'], `router "to" names no component: "${router.to}"`);
    if (router.condition) {
      const input = parseIOKey(router.condition.input);
      if (!(IO_TARGETS as readonly string[]).includes(input.target ?? ''))
        throw locate(['routers', index, 'condition', 'input'], `expected a state key such as "context:${router.from}.final_answer"`);
    }
    for (const [value, target] of Object.entries(router.condition?.routes ?? {})) {
      if (!known(target)) throw locate(['routers', index, 'condition', 'routes', value], `route "${value}" names no component: "${target}"`);
    }
    edges.set(router.from, router.to !== undefined ? [router.to] : Object.values(router.condition?.routes ?? {}));
  });
  flow.components.forEach((component, index) => {
    if (component.type !== 'end' && !routed.has(component.name)) {
      throw locate(['components', index], `component "${component.name}" has no router; add {from: ${component.name}, to: <component or end>}`);
    }
  });
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
      throw locate(['components', index], `component "${component.name}" is never reached: no router from the entry point "${flow.entry_point}" leads to it`);
  });
}
