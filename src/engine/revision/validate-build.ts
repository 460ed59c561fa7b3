import { quoteCapped } from '../../config/cap-text.js';
import { checkFormat, type FormatCheck, type Locator } from '../../config/assert-format.js';
import { formatAt } from '../../config/format-part.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { validateFlowSpec } from '../flow/validate-flow.js';
import { validateChainSpec } from '../chain/validate-chain.js';
import { isUnderUnknownAction } from '../chain/failure-policy.js';
import { validateMcps } from '../mcp/validate-mcps.js';
import { isPlanCallPath, validatePlanSpec } from '../plan/validate-plan.js';
import { validateLlmParameters } from '../providers/validate-parameters.js';
import { soundLlmParts } from '../providers/sound-llm-parts.js';
import { checkCompositeCycles, type CycleLocator } from './composite-cycles.js';
import { agentBuildSchema } from './schema.js';
import { BUILTIN_NAMES } from './tool-schema.js';
import type { AgentBuild } from './types.js';
import type { PathSegments } from '../../config/source.js';
import { commandProblems } from './command-checks.js';
import { buildAgent } from './build-agent.js';
import { duplicateSkillName } from '../../skills/duplicate-skill-name.js';
import { checkSkillRef } from './skill-refs.js';
import { resolve } from 'node:path';
import { checkBuildKind, checkBuildKindClash, validateExternal } from './validate-external.js';
import { toolParametersOf } from './argument-names.js';
import { externalCommandFileProblems } from './external-command-files.js';
import { toolRuleProblems } from './tool-rules.js';

const SKILL_NAME = /^[a-z0-9-]{1,64}$/;

/**
 * Validates a whole build: the format schema first, then the rules a schema cannot say
 * (unique tool names, one implementation per tool, valid parameter schemas, references).
 * Every problem is reported in one pass: a rule runs on the parts the format problems leave
 * valid (docs/cli.md, validate). With `refsDir` (the folder skill refs are relative to), each
 * skill ref must name a skill folder, beside the build's other problems; with `commandsDir` (the
 * build file's folder), each `./` file an external command runs must exist, likewise. A composite
 * cycle is located by `locateCycle` when given (a delta names the call it wrote), else at its first call.
 */
export function validateBuild(
  value: unknown,
  locate: Locator,
  refsDir?: string,
  commandsDir?: string,
  locateCycle?: CycleLocator,
): asserts value is AgentBuild {
  // `agent` beside `external` is said first, and the problems inside each are said beside it.
  const clash = checkBuildKindClash(value, locate);
  const format = checkFormat<AgentBuild>(agentBuildSchema, value, locate);
  const problems: ConfigError[] = [...clash, ...format.errors];
  // With format problems the build is read only where `format` says it is valid (or typed).
  const build = format.value;
  if (!format.typed([])) throwConfigErrors(problems);
  // A build with a misspelt `agent` is said to have an unknown key, not to have no agent.
  if (!problems.length) problems.push(...checkBuildKind(build, locate));
  if (build.external !== undefined && format.typed(['external'])) {
    problems.push(...validateExternal(build.external, locate, format));
    const llm = build.external.llm;
    if (soundLlmParts(format, ['external', 'llm'])) collectConfigErrors(problems, () => validateLlmParameters(llm, locate, ['external', 'llm', 'parameters']));
    // The files its commands run, beside the other problems of `external`.
    if (commandsDir !== undefined) problems.push(...externalCommandFileProblems(build, commandsDir, locate, (path) => format.valid(path)));
  }
  if ((build.external === undefined || clash.length) && build.agent !== undefined && format.typed(['agent'])) {
    // A key a rule refuses itself (of a flow component or a plan call: another kind's, or unknown;
    // an on_failure key its action does not use; an http tool's key in a command block) is said
    // once, by the rule: not also by the format, whatever it holds.
    const saidKeys = new Set<string>();
    const sayingKeys: Locator = (path, expected, atKey) => {
      if (atKey && isKindKeyPath(path)) saidKeys.add(JSON.stringify(path));
      return locate(path, expected, atKey);
    };
    validateAgent(build, sayingKeys, format, problems, refsDir, locateCycle);
    const underSaidKey = (path: PathSegments) => path.some((_segment, end) => saidKeys.has(JSON.stringify(path.slice(0, end + 1))));
    // Beside a bad on_failure action, a policy key's value is not judged: whether it applies is not known.
    const unjudged = (path: PathSegments) => underSaidKey(path) || isUnderUnknownAction(path, (at) => format.valid(at));
    const kept = new Set(format.errorsExcept(unjudged));
    const said = problems.filter((problem) => kept.has(problem) || !format.errors.includes(problem));
    problems.splice(0, problems.length, ...said);
  }
  throwConfigErrors(problems);
}

/**
 * `path` is a key of an object whose keys depend on its kind (docs/workflows.md): of a flow
 * component, of a plan call (of a plan tool or a plan component), of a chain step's on_failure, or
 * of an agent tool's http or command block.
 */
function isKindKeyPath(path: PathSegments): boolean {
  const planCall = path[3] === 'plan' && isPlanCallPath(path.slice(4, -1));
  // A chain step's on_failure key, which its action decides (docs/workflows.md, Tool chains).
  const failurePolicy = path[3] === 'chain' && path[4] === 'steps' && path[6] === 'on_failure' && path.length === 8;
  // A key of an http or command block that the other kind of tool takes (tool-rules.ts).
  const toolBlock = (path[3] === 'http' || path[3] === 'command') && path.length === 5;
  if (path[0] === 'agent' && path[1] === 'tools') return planCall || failurePolicy || toolBlock;
  return path[0] === 'flow' && path[1] === 'components' && (path.length === 4 || planCall);
}

/**
 * The rules of `agent` and `flow` a schema cannot say, each on the parts `format` leaves valid;
 * problems go to `problems`.
 */
function validateAgent(
  build: AgentBuild,
  locate: Locator,
  format: FormatCheck,
  problems: ConfigError[],
  refsDir: string | undefined,
  locateCycle: CycleLocator | undefined,
): void {
  // The parameters beside a bad base_url or timeout_ms: they need only the provider they are for.
  if (soundLlmParts(format, ['agent', 'llm'])) collectConfigErrors(problems, () => validateLlmParameters(buildAgent(build).llm, locate));
  const tools = format.typed(['agent', 'tools']) ? (buildAgent(build).tools ?? []) : [];
  const seen = new Map<string, number>();
  // Each tool on its own, and each of its keys, so one pass reports every problem.
  tools.forEach((tool, index) => problems.push(...toolRuleProblems(tool, index, seen, format, locate)));

  // Each server entry whose format is sound, beside any problem of the tools or of other entries.
  if (format.typed(['agent', 'mcps'])) collectConfigErrors(problems, () => validateMcps(buildAgent(build), locate, format));

  // An allow entry no argv[0] can be would leave its program asking for approval without a word.
  problems.push(...commandProblems(build, tools, format, locate));

  // The names written, valid or not: entries that are not objects (an empty list item is null) and
  // names that are not strings (`name: 5`) were reported by the format check.
  const names = tools.flatMap((tool) => (tool && typeof tool === 'object' && typeof tool.name === 'string' ? [tool.name] : []));
  const callable = new Set<string>([...BUILTIN_NAMES, ...names]);
  // Chains and plans call tools by name (those written, valid or not): each checked when its tool is
  // valid, and its argument names against the parameters of a called tool that is valid itself.
  const written = tools.flatMap((tool, index) => (tool && typeof tool === 'object' ? [{ tool, valid: format.valid(['agent', 'tools', index]) }] : []));
  const validTools = new Map(written.filter((entry) => entry.valid).map(({ tool }) => [tool.name, tool] as const));
  const withProblems = new Set(written.filter((entry) => !entry.valid).map(({ tool }) => tool.name));
  const parametersOf = (name: string) => (withProblems.has(name) ? undefined : toolParametersOf(validTools, name));
  // A format problem in a scalar limit (max_steps, max_iterations) or in one step hides no
  // problem of the other steps: a chain's steps and a plan's calls are checked key by key.
  tools.forEach((tool, index) => {
    const ok = (...path: PathSegments) => format.valid(['agent', 'tools', index, ...path]);
    const typed = (...path: PathSegments) => format.typed(['agent', 'tools', index, ...path]);
    // Not a mapping (an empty list item is null): its format problem says so.
    if (!typed()) return;
    const { chain, plan } = tool;
    if (chain && typed('chain', 'steps'))
      collectConfigErrors(problems, () =>
        validateChainSpec(
          chain,
          callable,
          (path, expected, atKey) => locate(['agent', 'tools', index, 'chain', ...path], expected, atKey),
          parametersOf,
          ok('parameters') ? tool.parameters : undefined,
          formatAt(format, ['agent', 'tools', index, 'chain']),
        ),
      );
    if (plan && typed('plan')) {
      const planAt = ['agent', 'tools', index, 'plan'];
      collectConfigErrors(problems, () =>
        validatePlanSpec(plan, callable, (path, expected, atKey) => locate([...planAt, ...path], expected, atKey), parametersOf, formatAt(format, planAt)),
      );
    }
  });
  const skills = format.typed(['agent', 'skills']) ? (buildAgent(build).skills ?? []) : [];
  // Each skill's name and description on their own, beside any format problem of its other keys.
  // Names are compared in order, a ref's once its folder loads (docs/skills.md).
  const skillNames = new Map<string, number>();
  skills.forEach((skill, index) => {
    const at = ['agent', 'skills', index];
    if (!format.typed(at)) return;
    if (skill.ref !== undefined) {
      const extra = Object.keys(skill).filter((key) => key !== 'ref');
      if (extra.length && format.valid(at)) problems.push(locate([...at, extra[0]], `a skill given by "ref" takes no other keys`, true));
      const ref = skill.ref;
      if (refsDir === undefined || !format.valid([...at, 'ref'])) return;
      collectConfigErrors(problems, () => {
        // A ref's name is known once its folder loads: a build cannot hold two skills of one name.
        const name = checkSkillRef(resolve(refsDir, ref), [...at, 'ref'], locate);
        const first = skillNames.get(name);
        if (first !== undefined) throw locate([...at, 'ref'], duplicateSkillName(name, first, true));
        skillNames.set(name, index);
      });
      return;
    }
    // A misspelt `name` or `ref` (`reff: s12`) is said once, as the typo.
    const misspelt = format.misspelt([...at, 'name']) || format.misspelt([...at, 'ref']);
    if (skill.name === undefined) {
      if (!misspelt) problems.push(locate(at, 'expected an inline skill {name, description, body} or {ref: <folder>}'));
    } else if (format.valid([...at, 'name']) && !SKILL_NAME.test(skill.name)) {
      problems.push(locate([...at, 'name'], `expected a skill name matching ${SKILL_NAME.source}, got ${quoteCapped(skill.name)}`));
    } else if (format.valid([...at, 'name'])) {
      const first = skillNames.get(skill.name);
      if (first !== undefined) problems.push(locate([...at, 'name'], duplicateSkillName(skill.name, first, false)));
      else skillNames.set(skill.name, index);
    }
    if (skill.name !== undefined && skill.description === undefined && !format.misspelt([...at, 'description']))
      problems.push(locate(at, `missing required key "description"`));
    else if (format.valid([...at, 'description']) && typeof skill.description === 'string' && skill.description.trim() === '') {
      problems.push(locate([...at, 'description'], 'expected "description" to be a non-empty string, got ""'));
    }
  });

  const flow = build.flow;
  // A flow names the agent's tools and parts: each router the format leaves valid, and each
  // component key by key, is checked beside the others' format problems, and beside the tools' own.
  if (flow && format.typed(['flow']) && format.typed(['agent', 'tools'])) {
    const part = formatAt(format, ['flow']);
    const flowTools = {
      valid: tools.filter((_tool, index) => format.valid(['agent', 'tools', index])),
      names,
    };
    collectConfigErrors(problems, () => validateFlowSpec(flow, flowTools, (path, expected, atKey) => locate(['flow', ...path], expected, atKey), part));
  }
  // Cycles are looked for last, in a build with no other problem (docs/cli.md, validate): every one.
  if (!problems.length) collectConfigErrors(problems, () => checkCompositeCycles(build, locate, locateCycle));
}
