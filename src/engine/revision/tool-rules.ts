import type { FormatCheck, Locator } from '../../config/assert-format.js';
import { quoteCapped, shownNames } from '../../config/cap-text.js';
import { collectConfigErrors, type ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import { PLAN_SYSTEM_TOOLS } from '../plan/validate-plan.js';
import { URL_TEMPLATE_FILTERS } from '../template/url-template.js';
import { closedArgumentNames } from './argument-names.js';
import { headerProblems } from './header-checks.js';
import { checkArgsTemplates, httpUrlProblem } from './template-checks.js';
import { IMPLEMENTATION_KEYS, tool as toolSchema } from './tool-schema.js';
import { toolParametersProblems } from './tool-parameters-problems.js';
import type { ToolSpec } from './types.js';

/**
 * The rules of agent tool `index` a schema cannot say (docs/formats.md, Tools): a usable, unique
 * name (counted in `seen`, name to index), one implementation key, valid parameters, and
 * templates an http or command tool can fill. Each runs on the keys it reads, beside the format
 * problems of the tool's other keys (docs/cli.md, validate): a key with a problem of its own is
 * said by that problem alone.
 */
export function toolRuleProblems(tool: ToolSpec, index: number, seen: Map<string, number>, format: FormatCheck, locate: Locator): ConfigError[] {
  const at = ['agent', 'tools', index];
  // Not a mapping (an empty list item is null): its format problem says so.
  if (!format.typed(at)) return [];
  const problems: ConfigError[] = [];
  const sound = (...path: PathSegments) => format.valid([...at, ...path]);
  const typed = (...path: PathSegments) => format.typed([...at, ...path]);
  // The name is checked, and counted for duplicates, also when another key of the tool has a problem.
  const nameProblem = sound('name') ? toolNameProblem(tool.name, index, seen) : undefined;
  if (nameProblem) problems.push(locate([...at, 'name'], nameProblem));
  const impls = IMPLEMENTATION_KEYS.filter((key) => key in tool);
  const named = sound('name') ? `tool ${quoteCapped(tool.name)}` : 'the tool';
  // A misspelt implementation key (`retuns`) is said as the typo alone.
  if (impls.length !== 1 && !IMPLEMENTATION_KEYS.some((key) => format.misspelt([...at, key]))) {
    problems.push(
      locate(
        at,
        impls.length === 0
          ? `${named} needs exactly one implementation key (${IMPLEMENTATION_KEYS.join(', ')})`
          : `${named} has ${impls.join(' and ')}; expected exactly one implementation key`,
      ),
    );
  }
  const parameterProblems = tool.parameters !== undefined && sound('parameters') ? toolParametersProblems(tool.parameters, at, locate) : [];
  problems.push(...parameterProblems);
  // Template names are held to the parameters only when those are sound.
  const properties = sound('parameters') && !parameterProblems.length ? closedArgumentNames(tool.parameters) : null;
  const http = tool.http;
  // The url, headers and body each on their own: one pass reports a problem in each.
  if (http && typed('http')) {
    if (sound('http', 'url')) {
      collectConfigErrors(problems, () => {
        const problem = httpUrlProblem(http.url);
        if (problem) throw locate([...at, 'http', 'url'], problem);
        checkArgsTemplates(http.url, [...at, 'http', 'url'], locate, properties, { filters: URL_TEMPLATE_FILTERS });
      });
    }
    // Each header whose value is a string; header values alone may also read the environment, so a
    // token stays out of the build (docs/security.md).
    const headers = typed('http', 'headers') ? Object.entries(http.headers ?? {}).filter(([name]) => sound('http', 'headers', name)) : [];
    collectConfigErrors(problems, () => checkArgsTemplates(Object.fromEntries(headers), [...at, 'http', 'headers'], locate, properties, { env: true }));
    problems.push(...headerProblems(Object.fromEntries(headers), [...at, 'http', 'headers'], locate));
    collectConfigErrors(problems, () => checkArgsTemplates(http.body, [...at, 'http', 'body'], locate, properties));
  }
  const command = tool.command;
  if (command && typed('command', 'argv'))
    collectConfigErrors(problems, () => checkArgsTemplates(command.argv, [...at, 'command', 'argv'], locate, properties));
  problems.push(...otherKindKeyProblems(tool, at, typed, locate));
  return problems;
}

/** The keys of an http and of a command block (the build schema), and what to call a tool of each. */
const BLOCKS = {
  http: { keys: Object.keys(toolSchema.properties.http.properties), tool: 'an http tool' },
  command: { keys: Object.keys(toolSchema.properties.command.properties), tool: 'a command tool' },
} as const;

/**
 * Each key of an http block that only a command block takes (`argv`), and of a command block that
 * only an http block takes (`url`): said as belonging to the other kind of tool, with the block's
 * own keys, once and whatever it holds (at the key, so the format's `unknown key` is left out), as
 * a flow component's key of another type is (docs/formats.md, Tools).
 */
function otherKindKeyProblems(tool: ToolSpec, at: PathSegments, typed: (...path: PathSegments) => boolean, locate: Locator): ConfigError[] {
  const problems: ConfigError[] = [];
  for (const [kind, other] of [
    ['http', 'command'],
    ['command', 'http'],
  ] as const) {
    const block: unknown = tool[kind];
    if (block === undefined || !typed(kind)) continue;
    const own: readonly string[] = BLOCKS[kind].keys;
    const others: readonly string[] = BLOCKS[other].keys;
    for (const key of Object.keys(block as object).filter((key) => !own.includes(key) && others.includes(key))) {
      problems.push(
        locate([...at, kind, key], `${quoteCapped(key)} belongs to ${BLOCKS[other].tool}, not ${BLOCKS[kind].tool}; expected one of: ${shownNames(own)}`, true),
      );
    }
  }
  return problems;
}

/** Why a tool cannot take `name`, or undefined; a name first met is counted in `seen`. */
function toolNameProblem(name: string, index: number, seen: Map<string, number>): string | undefined {
  const previous = seen.get(name);
  if (previous !== undefined) return `duplicate tool name ${quoteCapped(name)} (already used by agent.tools[${previous}])`;
  seen.set(name, index);
  // The skill loader's name: with skills delivered on demand, two tools would share it.
  if (name === 'load_skill') {
    return '"load_skill" is the tool agentcheck offers for skills delivered on demand (docs/skills.md); name this tool something else';
  }
  // A plan's call of a system tool's name always means the system tool: no plan could call this one.
  if (PLAN_SYSTEM_TOOLS.includes(name)) {
    return `${quoteCapped(name)} is a STEP plan keyword (docs/workflows.md, STEP plans): a plan calling ${quoteCapped(name)} always runs the system tool, never this tool; name this tool something else`;
  }
  return undefined;
}
