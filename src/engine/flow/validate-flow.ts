import { quoteCapped, shownNames } from '../../config/cap-text.js';
import type { Locator } from '../../config/assert-format.js';
import { formatAt, SOUND_FORMAT, type PartFormat } from '../../config/format-part.js';
import type { PathSegments } from '../../config/source.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { validatePlanSpec } from '../plan/validate-plan.js';
import { BUILTIN_NAMES } from '../revision/tool-schema.js';
import type { ComponentSpec, FlowSpec, IOKey, ToolSpec } from '../revision/types.js';
import { toolParametersOf } from '../revision/argument-names.js';
import { LOAD_SKILL } from '../revision/build-tools.js';
import { IO_TARGETS, parseIOKey } from './io-key.js';
import { routedOutputKey } from './component-outputs.js';
import { DEFAULT_ROUTE, END } from './route.js';
import { closestWord, didYouMean } from '../../config/did-you-mean.js';
import { validateStepArguments } from './validate-step-arguments.js';
import { strayComponentKeys } from './component-keys.js';
import { conversationProblem, planInputProblems } from './flow-input-names.js';

/** An IOKey reads one source: with both, `literal` would silently win over `from`. */
const FROM_AND_LITERAL = 'an input takes "from" (a state key) or "literal" (a fixed value), not both; remove one';

function hasFromAndLiteral(raw: IOKey): boolean {
  return typeof raw === 'object' && raw.from !== undefined && Object.hasOwn(raw, 'literal');
}

/** `optional` on a literal input: a fixed value is never missing. */
const LITERAL_OPTIONAL = '"optional" does not apply to a literal input (a fixed value is never missing); it takes: literal, as';
/** `as` on a router's input: the value is matched against the routes, never passed on by a name. */
const ROUTER_AS = `"as" does not apply to a router's input (its value is matched against the routes, never passed on by name); it takes: from, optional`;

/** Context keys the engine writes itself, which a component name would overwrite. */
const RESERVED_NAMES = ['goal'];

/**
 * The agent's tools a flow may call: those with no format problem (a step's inputs are checked
 * against their parameters), and the names of all of them (a step calling a tool that has a
 * problem of its own is not also told the tool is unknown).
 */
export interface FlowTools {
  valid: readonly ToolSpec[];
  names: readonly string[];
}

/**
 * Load-time rules of a flow (docs/workflows.md, Flows): unique names, a known entry point, keys that fit
 * each component type, deterministic steps whose tool exists and whose inputs fit its schema,
 * toolsets of existing tools, well-formed IOKeys, one router per component that resolves, and
 * no component that no router reaches. With format problems (`part`, paths relative to `flow`),
 * each router the format leaves valid, and each component key by key (its keys of another type,
 * unknown keys too, whatever they hold), is checked beside them; a name is known when it is
 * written at all, so a component with a problem of its own does not make the routers naming it wrong too.
 */
export function validateFlowSpec(flow: FlowSpec, tools: FlowTools, locate: Locator, part: PartFormat = SOUND_FORMAT): void {
  // Each component, input and router on its own: one pass reports every problem (docs/cli.md, validate).
  const problems: ConfigError[] = [];
  const components = part.typed(['components']) ? flow.components : [];
  const objects = components.flatMap((component, index) => (part.typed(['components', index]) ? [{ component, index }] : []));
  const written = new Set(objects.flatMap(({ component }) => (typeof component.name === 'string' ? [component.name] : [])));
  const names = new Map<string, number>();
  // A component whose name key is misspelt has none: said at the typo; what names it cannot be judged.
  const unnamed = objects.some(({ component }) => typeof component.name !== 'string');
  for (const { component, index } of objects) {
    if (!part.valid(['components', index, 'name']) || typeof component.name !== 'string') continue;
    const at = ['components', index, 'name'];
    if (names.has(component.name)) problems.push(locate(at, `duplicate component name ${quoteCapped(component.name)}`));
    else if (RESERVED_NAMES.includes(component.name))
      problems.push(locate(at, `${quoteCapped(component.name)} is reserved (context:${component.name} holds the user's goal); pick another name`));
    else if (component.name === END && part.valid(['components', index, 'type']) && component.type !== 'end')
      problems.push(locate(at, `a component named "end" must have type end ("end" as a route target ends the flow)`));
    if (!names.has(component.name)) names.set(component.name, index);
  }
  if (typeof flow.entry_point === 'string' && part.valid(['entry_point']) && part.typed(['components']) && !unnamed && !written.has(flow.entry_point)) {
    const expected = names.size ? `expected one of: ${shownNames(names.keys())}` : 'the flow has no component with a valid name';
    problems.push(locate(['entry_point'], `entry_point ${quoteCapped(flow.entry_point)} names no component; ${expected}`));
  }
  // approvals.tools answers a human_input component by its name: one shared with a tool would answer both gates.
  // A plan component's run is a call named after it: one shared with a tool would read as that tool's calls.
  for (const { component, index } of objects) {
    const tool = tools.names.includes(component.name) || (BUILTIN_NAMES as readonly string[]).includes(component.name);
    if (!part.valid(['components', index, 'name']) || !tool) continue;
    const at = ['components', index, 'name'];
    if (component.type === 'human_input') {
      problems.push(
        locate(
          at,
          `the human_input component ${quoteCapped(component.name)} shares its name with a tool: approvals.tools.${component.name} would answer both gates; pick another name`,
        ),
      );
    } else if (component.type === 'plan') {
      problems.push(
        locate(
          at,
          `the plan component ${quoteCapped(component.name)} shares its name with a tool: each run is recorded as a call named after the component, which checks and the verdict would count as that tool's; pick another name`,
        ),
      );
    }
  }
  const agentTools = new Map(tools.valid.map((tool) => [tool.name, tool]));
  const scope: ToolScope = {
    agentTools,
    callable: new Set<string>([...BUILTIN_NAMES, ...tools.names]),
    unchecked: new Set(tools.names.filter((name) => !agentTools.has(name))),
    // Without a name problem, the agent components whose conversations the flow state can hold.
    conversations: unnamed ? undefined : objects.filter(({ component }) => component.type === 'agent').map(({ component }) => component.name),
  };
  for (const { component, index } of objects) validateComponent(component, ['components', index], scope, { locate, part }, problems);
  // Reachability is worked out only from a known entry point, in a flow with no format problem.
  validateRouters(flow, { names, written, unnamed, part }, locate, problems, part.valid([]) && !unnamed && names.has(flow.entry_point), scope.conversations);
  throwConfigErrors(problems);
}

/** The tools a component may name: valid agent tools by name, every callable name, and agent tools with problems of their own. */
interface ToolScope {
  agentTools: ReadonlyMap<string, ToolSpec>;
  callable: ReadonlySet<string>;
  unchecked: ReadonlySet<string>;
  /** The agent components (the only ones with a conversation); undefined when names are unknown. */
  conversations?: readonly string[];
}

/**
 * A component's rules, each on the keys it reads: a key with a format problem of its own (`part`)
 * is said by that problem alone, and its type's keys are known once its type is.
 */
function validateComponent(
  component: ComponentSpec,
  at: Array<string | number>,
  scope: ToolScope,
  { locate, part }: { locate: Locator; part: PartFormat },
  problems: ConfigError[],
): void {
  const { agentTools, callable } = scope;
  const sound = (...path: PathSegments) => part.validBesideUnknownKeys([...at, ...path]);
  // A required key is not also said missing when an unknown key beside it misspells it.
  const missing = (key: keyof ComponentSpec) => component[key] === undefined && !part.misspelt([...at, key]);
  if (part.valid([...at, 'type'])) for (const [stray, why] of strayComponentKeys(component)) problems.push(locate([...at, stray], why, true));
  const inputs = part.typed([...at, 'inputs']) ? (component.inputs ?? []) : [];
  inputs.forEach((raw, index) => {
    if (!sound('inputs', index)) return;
    const key = parseIOKey(raw);
    const here = [...at, 'inputs', index];
    // A literal is never missing: "optional: true" would promise what cannot happen (a `from`
    // beside it is said below); `optional: false`, the default, says nothing and is let be.
    if (typeof raw === 'object' && key.hasLiteral && raw.from === undefined && Object.hasOwn(raw, 'optional') && raw.optional !== false)
      problems.push(locate([...here, 'optional'], LITERAL_OPTIONAL, true));
    if (typeof raw === 'object' && raw.from === undefined && !key.hasLiteral) problems.push(locate(here, 'an input needs "from" (a state key) or "literal"'));
    else if (hasFromAndLiteral(raw)) problems.push(locate([...here, 'literal'], FROM_AND_LITERAL, true));
    else if (key.hasLiteral && typeof raw === 'object' && raw.as === undefined && raw.from === undefined)
      problems.push(locate(here, 'a literal input needs "as" (its name)'));
    else if (!key.hasLiteral && !(IO_TARGETS as readonly string[]).includes(key.target ?? '')) {
      problems.push(
        locate(
          here,
          `${quoteCapped(key.text)} reads from "${key.target}:", which is not a state channel; expected ${IO_TARGETS.map((t) => `${t}:<keys>`).join(' or ')}`,
        ),
      );
    } else if (!key.hasLiteral) {
      const conversation = conversationProblem(key, scope.conversations);
      if (conversation) problems.push(locate(typeof raw === 'object' ? [...here, 'from'] : here, conversation));
    }
  });
  if (component.type === 'deterministic_step') {
    const tool = component.tool_name;
    if (missing('tool_name')) problems.push(locate(at, 'a deterministic_step needs "tool_name"'));
    // A tool_name with a format problem of its own names no tool to check.
    else if (tool !== undefined && part.valid([...at, 'tool_name'])) {
      if (!callable.has(tool))
        problems.push(
          locate(
            [...at, 'tool_name'],
            `unknown tool ${quoteCapped(tool)}; expected an agent tool or a built-in (${BUILTIN_NAMES.join(', ')})${didYouMean(tool, callable)}`,
          ),
        );
      else if (!scope.unchecked.has(tool) && sound('inputs')) {
        // A step's inputs are checked against its tool's parameters, once that tool and they are valid.
        const parameters = toolParametersOf(agentTools, tool) as Record<string, unknown> | undefined;
        collectConfigErrors(problems, () => validateStepArguments(component, tool, parameters, at, locate));
      }
    }
  }
  if (component.type === 'agent' && part.typed([...at, 'toolset'])) {
    (component.toolset ?? []).forEach((tool, index) => {
      if (!part.valid([...at, 'toolset', index])) return;
      // Offered by the run, not the build: present only when skills are delivered on demand.
      if (tool === LOAD_SKILL)
        problems.push(
          locate(
            [...at, 'toolset', index],
            `"${LOAD_SKILL}" cannot be listed in a toolset: every agent component is offered it anyway when skills are delivered on demand (docs/skills.md); remove it`,
          ),
        );
      else if (!callable.has(tool))
        problems.push(
          locate([...at, 'toolset', index], `unknown tool ${quoteCapped(tool)} in toolset; expected an agent tool or a built-in${didYouMean(tool, callable)}`),
        );
    });
  }
  if (component.type === 'plan') {
    if (part.typed([...at, 'inputs'])) planInputProblems(component, at, locate, problems, (index) => sound('inputs', index));
    const plan = component.plan;
    if (missing('plan')) problems.push(locate(at, 'a plan component needs "plan: {constants, steps}"'));
    else if (plan !== undefined && part.typed([...at, 'plan'])) {
      const parametersOf = (name: string) => (scope.unchecked.has(name) ? undefined : toolParametersOf(agentTools, name));
      const planAt = [...at, 'plan'];
      collectConfigErrors(problems, () =>
        validatePlanSpec(plan, callable, (path, expected, atKey) => locate([...planAt, ...path], expected, atKey), parametersOf, formatAt(part, planAt)),
      );
    }
  }
}

/** The component a router leaves from, also under a misspelt `from` (`frm: a`): that router is the one it has. */
function fromOf(router: object): string[] {
  return Object.entries(router).flatMap(([key, value]) =>
    typeof value === 'string' && (key === 'from' || closestWord(key, ['from']) !== undefined) ? [value] : [],
  );
}

/** The component names a flow's routers may name: those checked (`names`, to their index) and all written. */
interface FlowNames {
  names: ReadonlyMap<string, number>;
  written: ReadonlySet<string>;
  /** Some component has no name (its name key misspelt): a name routers use may be its. */
  unnamed: boolean;
  part: PartFormat;
}

function validateRouters(
  flow: FlowSpec,
  { names, written, unnamed, part }: FlowNames,
  locate: Locator,
  problems: ConfigError[],
  checkReach: boolean,
  conversations: readonly string[] | undefined,
): void {
  const known = (name: string) => name === END || written.has(name) || unnamed;
  const routed = new Map<string, number>();
  const edges = new Map<string, string[]>();
  const before = problems.length;
  const routers = part.typed(['routers']) ? (flow.routers ?? []) : [];
  // A component that a router with a format problem leaves from is not said to have no router.
  const leftFrom = new Set(routers.flatMap((router, index) => (part.typed(['routers', index]) ? fromOf(router) : [])));
  routers.forEach((router, index) => {
    const at = ['routers', index];
    if (!part.valid(at)) return;
    if (!known(router.from)) return void problems.push(locate([...at, 'from'], `router "from" names no component: ${quoteCapped(router.from)}`));
    const from = names.get(router.from);
    // A component whose own name has a problem is reported there; its router waits for it.
    if (from === undefined) return;
    if (flow.components[from].type === 'end')
      return void problems.push(locate([...at, 'from'], `${quoteCapped(router.from)} is an end component: the flow ends there, so it takes no router`));
    if (routed.has(router.from)) {
      return void problems.push(
        locate(
          [...at, 'from'],
          `component ${quoteCapped(router.from)} already has a router (routers[${routed.get(router.from)}]); use one conditional router instead`,
        ),
      );
    }
    routed.set(router.from, index);
    if ((router.to === undefined) === (router.condition === undefined))
      return void problems.push(locate(at, 'a router needs exactly one of "to" or "condition"'));
    if (router.to !== undefined && !known(router.to)) problems.push(locate([...at, 'to'], `router "to" names no component: ${quoteCapped(router.to)}`));
    if (router.condition) {
      const input = parseIOKey(router.condition.input);
      // A router passes its value to no tool: "as" would name nothing.
      if (typeof router.condition.input === 'object' && Object.hasOwn(router.condition.input, 'as'))
        problems.push(locate([...at, 'condition', 'input', 'as'], ROUTER_AS, true));
      if (hasFromAndLiteral(router.condition.input)) problems.push(locate([...at, 'condition', 'input', 'literal'], FROM_AND_LITERAL, true));
      else if (!(IO_TARGETS as readonly string[]).includes(input.target ?? '')) {
        // The example is a key the component writes: a deterministic step's error, an agent's final_answer.
        const key = routedOutputKey(flow.components[from].type) ?? 'final_answer';
        problems.push(locate([...at, 'condition', 'input'], `expected a state key such as "context:${router.from}.${key}"`));
      } else {
        const conversation = input.hasLiteral ? undefined : conversationProblem(input, conversations);
        if (conversation) problems.push(locate([...at, 'condition', 'input'], conversation));
      }
    }
    const routes = router.condition?.routes ?? {};
    for (const [value, target] of Object.entries(routes)) {
      if (!known(target))
        problems.push(locate([...at, 'condition', 'routes', value], `route ${quoteCapped(value)} names no component: ${quoteCapped(target)}`));
    }
    // A route value one typo from default_route is the fallback misspelt: it would never match.
    if (!Object.hasOwn(routes, DEFAULT_ROUTE)) {
      const typo = Object.keys(routes).find((value) => closestWord(value, [DEFAULT_ROUTE]) !== undefined);
      if (typo !== undefined) {
        const why = `as written it routes only the value ${quoteCapped(typo)}, and the router has no ${DEFAULT_ROUTE}`;
        problems.push(locate([...at, 'condition', 'routes', typo], `route ${quoteCapped(typo)}: did you mean "${DEFAULT_ROUTE}"? ${why}`, true));
      }
    }
    edges.set(router.from, router.to !== undefined ? [router.to] : Object.values(router.condition?.routes ?? {}));
  });
  for (const [name, index] of names) {
    if (!part.valid(['components', index, 'type']) || flow.components[index].type === 'end' || routed.has(name) || leftFrom.has(name)) continue;
    problems.push(locate(['components', index], `component ${quoteCapped(name)} has no router; add {from: ${name}, to: <component or end>}`));
  }
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
        locate(
          ['components', index],
          `component ${quoteCapped(component.name)} is never reached: no router from the entry point ${quoteCapped(flow.entry_point)} leads to it`,
        ),
      );
  });
}
