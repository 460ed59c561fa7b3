import type { Locator } from '../../config/assert-format.js';
import { quoteCapped, shownNames } from '../../config/cap-text.js';
import { didYouMean } from '../../config/did-you-mean.js';
import type { ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import type { ScriptEntry } from '../../engine/providers/scripted.js';
import type { AgentBuild, ComponentSpec } from '../../engine/revision/types.js';
import { componentOutputKeys } from '../../engine/flow/component-outputs.js';
import { ownValue } from '../../config/own-key.js';
import { isPlainObject } from '../../verdicts/args/json-value.js';
import { parseValuePath } from '../../verdicts/value-path.js';
import { fullToolName, hasServerPrefix, normalizeToolName } from '../../spans/conventions.js';
import { parseSlashRegex } from '../../spans/query-regex.js';
// The modules themselves, not the verdicts index: test-run's start-up does not load every check kind.
import type { CheckReference } from '../../verdicts/check-references.js';
import { buildTools, isOpenServerTool, listedTools, LOAD_SKILL, suggestableTools, type BuildTools } from '../../engine/revision/build-tools.js';
import { withArticle } from '../../config/indefinite-article.js';
import { checkArgNames, matchingTools } from './check-argument-names.js';
import { calledOnlyNested, nestedOnlyNotCalled, nestedOnlyTerminal, verdictMayCount } from './nested-only-tools.js';
import { isLoadSkill, loadSkillProblems, withoutLoadSkill } from './load-skill-offered.js';

/** What a scenario names in its builds. */
export interface ScenarioNames {
  terminalTool?: string;
  /** How messages name the terminal tool's source; default `expect.terminal_tool`. */
  terminalToolLabel?: string;
  /** The tools and flow state the scenario's checks name (`checkReferences` of the checks that validated). */
  references: readonly CheckReference[];
  script?: readonly ScriptEntry[];
  /** `model.allow_unknown_tools`: the script may call tools the agent does not offer. */
  allowUnknownTools?: boolean;
  /** How to call an unknown tool on purpose, ending an unknown-script-tool message; default the scenario's `model.allow_unknown_tools`. */
  unknownToolsHint?: string;
  /** How to see a human_input component's answer, ending the message refusing it as a tool; default a scenario's state check. */
  humanInputHint?: (component: string) => string;
  /** Why no build is offered load_skill (inline delivery, no skills); given, the name is refused with it and never suggested. */
  noLoadSkill?: string;
  /** The scenario's `inputs.context`; undefined when it gives none. */
  context?: Readonly<Record<string, unknown>>;
}

const SCENARIO_UNKNOWN_TOOLS_HINT = ' (to test a call to an unknown tool on purpose, set model.allow_unknown_tools: true)';
const SCENARIO_HUMAN_INPUT_HINT = (component: string) =>
  `check its answer with a state check (state: {key: "context:${component}.decision"} or "context:${component}.response")`;
/** Where a single run's human_input answer is: a run has no checks, its spans hold the flow state. */
const singleRunHumanInputHint = (run: string, approvals: string, spans: string) => (component: string) =>
  `${run} has no checks: answer it with ${approvals} (tools: {${component}: approve}) and read the answer in the root span's agentcheck.flow.state ` +
  `(context.${component}.decision or .response) of ${spans}, or check it with a state check in a scenario`;
/** The human_input hint of the CLI's test-run. */
export const TEST_RUN_HUMAN_INPUT_HINT = singleRunHumanInputHint('a test-run', '--approvals', 'the --spans FILE');
/** The human_input hint of a test_run request (MCP test_run, the library's testRun). */
const REQUEST_HUMAN_INPUT_HINT = singleRunHumanInputHint('a test_run', 'approvals', "the run's spans (its trace_id)");
/** How a test_run (CLI, MCP, library) script calls an unknown tool on purpose: it cannot; a scenario can. */
export const TEST_RUN_UNKNOWN_TOOLS_HINT =
  ' (a test-run script calls only tools the agent offers; to test a call to an unknown tool, write a scenario with model.allow_unknown_tools: true)';

/**
 * The names a test_run request uses (`expectations.terminal_tool`, the script's tool calls), held
 * to the build that runs as a scenario's are, so the CLI, MCP and the library refuse the same
 * typos before anything runs (docs/cli.md, test-run). Paths are the request's. `noLoadSkill` says
 * why the run is not offered load_skill (noLoadSkillReason), undefined when it is.
 */
export function checkRequestNames(request: TestRunRequestNames, build: AgentBuild, locate: Locator): ConfigError[] {
  const { names, at } = requestNames(request, locate);
  return checkScenarioNames(names, [build], at);
}

/** What a test_run request names, as checkRequestNames holds it. */
export interface TestRunRequestNames {
  terminalTool?: string;
  script?: readonly ScriptEntry[];
  noLoadSkill: string | undefined;
}

/** A test_run request's names as a scenario's, and a locator placing a scenario's paths in the request. */
export function requestNames(request: TestRunRequestNames, locate: Locator): { names: ScenarioNames; at: Locator } {
  const requestPath = (path: PathSegments): PathSegments => {
    if (path[0] === 'expect') return ['expectations', ...path.slice(1)];
    return path[0] === 'model' && path[1] === 'script' ? ['script', ...path.slice(2)] : path;
  };
  return {
    names: {
      terminalTool: request.terminalTool,
      terminalToolLabel: 'expectations.terminal_tool',
      references: [],
      script: request.script,
      unknownToolsHint: TEST_RUN_UNKNOWN_TOOLS_HINT,
      humanInputHint: REQUEST_HUMAN_INPUT_HINT,
      noLoadSkill: request.noLoadSkill,
    },
    at: (path, expected, atKey) => locate(requestPath(path), expected, atKey),
  };
}

/**
 * Checks every tool name a scenario uses (terminal_tool, check tools and argument names, script
 * tool calls) and its state checks against the builds it runs: its own build and each variant
 * of it. A name is valid when one of those builds can call it, so a check about a tool a variant
 * removes stays valid. Returns every problem found (docs/formats.md, "Names a scenario uses").
 */
export function checkScenarioNames(names: ScenarioNames, builds: readonly AgentBuild[], locate: Locator): ConfigError[] {
  const loadSkill = names.noLoadSkill === undefined;
  const catalogs = builds.map(buildTools).map((catalog) => (loadSkill ? catalog : withoutLoadSkill(catalog)));
  const humanInputHint = names.humanInputHint ?? SCENARIO_HUMAN_INPUT_HINT;
  const problems: ConfigError[] = loadSkill ? [] : loadSkillProblems(names, names.noLoadSkill ?? '', locate);
  // Each name refused above is said once, with why, not again as an unknown tool.
  const refused = (name: string) => !loadSkill && isLoadSkill(name);
  if (names.terminalTool !== undefined && !refused(names.terminalTool)) {
    const label = names.terminalToolLabel ?? 'expect.terminal_tool';
    const at: Locator = (path, expected, atKey) => locate(['expect', 'terminal_tool', ...path], expected, atKey);
    const accepts = (name: string) => verdictMayCount(name, catalogs);
    const reference = checkToolReference({ kind: 'tool', at: [], name: names.terminalTool }, catalogs, label, at, { loadSkill, humanInputHint, accepts });
    const nestedOnly = reference.length ? null : nestedOnlyTerminal(names.terminalTool, catalogs, label, at);
    problems.push(...reference, ...(nestedOnly ? [nestedOnly] : []));
  }
  const checksAt: Locator = (path, expected, atKey) => locate(['expect', 'checks', ...path], expected, atKey);
  for (const reference of names.references) {
    if (reference.kind === 'tool' && refused(reference.name)) continue;
    if (reference.kind === 'tool') {
      const what = `${withArticle(String(reference.at[1]))} check`;
      const accepts = (name: string) => !reference.vacuousWhenNestedOnly || !calledOnlyNested(name, catalogs);
      const found = checkToolReference(reference, catalogs, what, checksAt, { loadSkill, humanInputHint, accepts });
      const at: Locator = (path, expected, atKey) => checksAt([...reference.at, ...path], expected, atKey);
      const vacuous = !found.length && reference.vacuousWhenNestedOnly ? nestedOnlyNotCalled(reference.name, catalogs, what, at) : null;
      problems.push(...found, ...(vacuous ? [vacuous] : []));
      continue;
    }
    const problem = checkFlowReference(reference, builds, names.context ?? {}, checksAt);
    if (problem) problems.push(problem);
  }
  if (names.script && !names.allowUnknownTools)
    problems.push(...checkScript(names.script, catalogs, locate, names.unknownToolsHint ?? SCENARIO_UNKNOWN_TOOLS_HINT, loadSkill));
  return problems;
}

/**
 * A state check needs a flow, and a key under `context:` or `conversation_history:` must start
 * with a name the flow state can hold, and one under `context:<component>` go on with a key that
 * component writes (or the scenario's inputs.context gives it): otherwise `exists: false` passes
 * whatever the run did.
 */
function checkFlowReference(
  reference: Extract<CheckReference, { kind: 'flow_state' }>,
  builds: readonly AgentBuild[],
  context: Readonly<Record<string, unknown>>,
  locate: Locator,
): ConfigError | null {
  const flows = builds.flatMap((build) => (build.flow ? [build.flow] : []));
  if (!flows.length) {
    return locate(
      reference.at,
      'a state check reads the flow state, but the agent build has no flow (its state would never exist); use output or tool checks, or add a flow',
    );
  }
  const match = /^(context|conversation_history):([^.]+)/.exec(reference.key);
  if (!match) return null;
  const [, channel, first] = match;
  const components = flows.flatMap((flow) => flow.components);
  const known =
    channel === 'context'
      ? [...new Set([...components.map((component) => component.name), 'goal', ...Object.keys(context)])]
      : [...new Set(components.filter((component) => component.type === 'agent').map((component) => component.name))];
  if (!known.includes(first)) {
    const what = channel === 'context' ? "a component of the flow, goal or a key of the scenario's inputs.context" : 'an agent component of the flow';
    return locate(
      reference.at,
      `state key ${quoteCapped(reference.key)} names ${quoteCapped(first)}, which is not ${what}, so the flow state never holds it; expected one of: ${shownNames(known) || '(none)'}${didYouMean(first, known)}`,
    );
  }
  return channel === 'context' ? outputKeyProblem(reference, components, context, locate) : null;
}

/**
 * `context:<component>.<key>` whose key the component never writes (docs/workflows.md, Components)
 * and the scenario's inputs.context does not give under that name; null when it may exist.
 */
function outputKeyProblem(
  reference: Extract<CheckReference, { kind: 'flow_state' }>,
  components: readonly ComponentSpec[],
  context: Readonly<Record<string, unknown>>,
  locate: Locator,
): ConfigError | null {
  const [component, key] = parseValuePath(reference.key.slice(reference.key.indexOf(':') + 1)) ?? [];
  const named = components.filter((spec) => spec.name === component);
  if (!named.length || key === undefined) return null;
  // The context starts as inputs.context, and outputs merge into what it gives under the name.
  const given = ownValue(context, String(component));
  const written = [...new Set(named.flatMap((spec) => componentOutputKeys(spec.type)))];
  const keys = [...new Set([...written, ...(isPlainObject(given) ? Object.keys(given) : [])])];
  if (keys.includes(String(key))) return null;
  const types = [...new Set(named.map((spec) => withArticle(String(spec.type))))].join(' or ');
  const writes = written.length ? `which writes only ${written.join(' and ')}` : 'which writes nothing';
  const fromContext = given === undefined ? '' : `, and the scenario's inputs.context gives no ${quoteCapped(String(key))} under it`;
  return locate(
    reference.at,
    `state key ${quoteCapped(reference.key)} reads ${quoteCapped(String(key))} of ${quoteCapped(String(component))}, ${types} component, ${writes}${fromContext}, so the flow state never holds it; expected one of: ${shownNames(keys) || '(none)'}${didYouMean(String(key), keys)}`,
  );
}

/** How checkToolReference holds a name where it is written. */
interface ToolPlace {
  loadSkill: boolean;
  humanInputHint: (component: string) => string;
  /**
   * Whether the place takes a tool name the builds have (a terminal tool must be one the verdict
   * counts): the names an unknown one is offered are only those, and never a human_input component.
   */
  accepts: (name: string) => boolean;
}

/** A tool name (and its argument names, each unknown one a problem) against the catalogs; empty when fine. */
function checkToolReference(
  reference: Extract<CheckReference, { kind: 'tool' }>,
  catalogs: readonly BuildTools[],
  what: string,
  locate: Locator,
  { loadSkill, humanInputHint, accepts }: ToolPlace,
): ConfigError[] {
  const open = mayBeOpenServerTool(reference.name, catalogs);
  // A human_input component is answered by approvals but is no call: a check naming it could never match.
  if (catalogs.some((catalog) => catalog.humanInputs?.has(reference.name))) {
    return [
      locate(
        reference.at,
        `${what} names ${quoteCapped(reference.name)}, a human_input component, not a tool: no call or approval of it is recorded, so it could never match; ${humanInputHint(reference.name)}`,
      ),
    ];
  }
  const matching = matchingTools(reference.name, catalogs);
  if (matching.length === 0) {
    // A server without a `tools` list may offer any name at run time: nothing to hold it against.
    if (open) return [];
    const all = listedTools(catalogs, { loadSkill });
    // Only names this place takes: the next message would refuse a human_input component or a tool it does not count.
    const names = all.filter((name) => !catalogs.some((catalog) => catalog.humanInputs?.has(name)) && accepts(name));
    const hint = unknownToolHint(reference.name, names);
    const known = shownNames(names) || (all.length ? '(none)' : '(the agent has no tools)');
    const regex = parseSlashRegex(reference.name) !== null;
    const verb = regex ? 'matches' : 'names';
    const seen = regex ? regexNamesHint(names) : '';
    return [locate(reference.at, `${what} ${verb} no tool of the agent: ${quoteCapped(reference.name)}; expected one of: ${known}${hint}${seen}`)];
  }
  const problems: ConfigError[] = [];
  // Only an http tool's call sends a request (docs/verdicts.md): a request matcher on others could never match.
  if (reference.request && matching.every((tool) => tool.http === false)) {
    const names = shownNames(new Set(matching.map((tool) => tool.name)));
    problems.push(
      locate(reference.request, `"request" matches only the calls of http tools, and ${names} sends no HTTP request, so it could never match`, true),
    );
  }
  // Argument names against the tools this run can see: a tool of a server it did not start is
  // held to its parameters in the runs that start it.
  const argTools = matching.filter((tool) => !tool.notListed);
  if (reference.args && !open && argTools.length) problems.push(...checkArgNames(reference.args, argTools, locate));
  return problems;
}

/**
 * Whether a server that lists its tools only once it runs may offer the name: any name of a build
 * that takes any name; a server-prefixed name only when that server is such a server (the name
 * names its tool only, docs/formats.md); any other name when some build has such a server.
 */
function mayBeOpenServerTool(name: string, catalogs: readonly BuildTools[]): boolean {
  if (!parseSlashRegex(name) && hasServerPrefix(name)) return catalogs.some((catalog) => isOpenServerTool(fullToolName(name), catalog));
  return catalogs.some((catalog) => catalog.openServers.length > 0 || catalog.anyName === true);
}

/**
 * The "did you mean" of a name no tool has: a server-prefixed name gets the one listed tool with
 * its tool part (`mcp__notes__write_note` for `mcp__x__write_note`), else the nearest full name;
 * another name the nearest name without prefixes; a /regex/ none.
 */
function unknownToolHint(name: string, given: readonly string[]): string {
  if (parseSlashRegex(name)) return '';
  const listed = suggestableTools(given);
  if (!hasServerPrefix(name)) return didYouMean(normalizeToolName(name), listed.map(normalizeToolName));
  const samePart = listed.filter((tool) => normalizeToolName(tool) === normalizeToolName(name));
  return samePart.length === 1 ? `; did you mean ${quoteCapped(samePart[0])}?` : didYouMean(fullToolName(name), listed);
}

/** Script tool calls must name a tool the model is offered, unless the scenario opts in. */
function checkScript(script: readonly ScriptEntry[], catalogs: readonly BuildTools[], locate: Locator, hint: string, loadSkill: boolean): ConfigError[] {
  const problems: ConfigError[] = [];
  script.forEach((entry, index) =>
    entry.tool_calls?.forEach((call, callIndex) => {
      if (!loadSkill && call.name === LOAD_SKILL) return;
      if (catalogs.some((catalog) => catalog.model.has(call.name) || isOpenServerTool(call.name, catalog))) return;
      const listed = listedTools(catalogs, { modelOnly: true, loadSkill });
      problems.push(
        locate(
          ['model', 'script', index, 'tool_calls', callIndex, 'name'],
          `the script calls ${quoteCapped(call.name)}, which the agent does not offer the model; expected one of: ${shownNames(listed) || '(none)'}${didYouMean(call.name, suggestableTools(listed))}${hint}`,
        ),
      );
    }),
  );
  return problems;
}

/**
 * For a /regex/ that matched none of `names`: what it was matched against, when the list shows
 * prefixes it never sees (a /regex/ tests names without `execute_tool ` and `mcp__<server>__`),
 * as `; a /regex/ sees the names without their mcp__<server>__ prefix: ...`; else ''. The
 * scenario checks and the vitest matchers say it alike.
 */
export function regexNamesHint(names: readonly string[]): string {
  if (!names.some((tool) => tool !== normalizeToolName(tool))) return '';
  // Two servers' tools may share a tool part: each name once.
  return `; a /regex/ sees the names without their mcp__<server>__ prefix: ${shownNames(new Set(names.map(normalizeToolName)))}`;
}
