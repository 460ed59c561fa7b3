import { checkFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import type { ScriptEntry } from '../../engine/providers/scripted.js';
import { validateLlmParameters } from '../../engine/providers/validate-parameters.js';
import { soundLlmParts } from '../../engine/providers/sound-llm-parts.js';
import { llmProperties } from '../../engine/revision/llm-schema.js';
import type { LlmSpec } from '../../engine/revision/types.js';
import type { JudgeParams } from '../../verdicts/checks/judge.js';
import { scriptSchema, validateScript } from '../scenario/scenario-schema.js';
import type { GraderModelSpec } from '../suite/suite-config-format.generated.js';

/** A grader model: the shape of a scenario's `model:` (provider, model, parameters, ... or a script). */
export const graderModelSchema = { type: 'object', additionalProperties: false, properties: { script: scriptSchema, ...llmProperties } };

/** A grader model as written (`judge.model`, a judge check's `model`): an llm override or a script. */
export type GraderModel = Partial<LlmSpec> & { script?: ScriptEntry[] };

/** One judge check of a scenario, ready to grade: its id, params and the grader it uses. */
export interface JudgeJob {
  /** The check id (`judge#2`): the key of its answer in the evidence. */
  id: string;
  params: JudgeParams;
  llm: LlmSpec;
  script?: ScriptEntry[];
}

/**
 * The suite's grader as judge checks see it: `judge.model` of agentcheck.config.yaml, where to
 * locate its problems, and `invalid` when the config's `judge` has problems said there already.
 */
export interface SuiteGrader {
  model?: GraderModel;
  at?: (expected: string) => ConfigError;
  invalid?: boolean;
  /** With `invalid`: what the config's grader lacks to grade on its own (graderGap), said beside its other problems. */
  gap?: string;
  /** Said after a missing grader: a suite config near the scenario that is not the run's (passed-over-config.ts), or ''. */
  missingHint?: () => string;
}

/**
 * The grader of every judge check in a scenario's checks, at load time: the check's own
 * `model` over the suite's `judge.model` (docs/formats.md). A judge check with no grader
 * anywhere is a located ConfigError, so a suite never starts with a check it cannot grade.
 * Every check's problems are reported together (validate reports a file in one pass). A check
 * that would use an invalid suite grader gets no job: the config's problem stops the run.
 */
export function judgeJobs(checks: ReadonlyArray<Record<string, unknown>>, suite: SuiteGrader, locate: Locator): JudgeJob[] {
  const jobs: JudgeJob[] = [];
  const problems: ConfigError[] = [];
  checks.forEach((check, index) => {
    if (!('judge' in check)) return;
    collectConfigErrors(problems, () => {
      const job = judgeJob(check.judge as JudgeParams, index, suite, locate);
      if (job) jobs.push(job);
    });
  });
  throwConfigErrors(problems);
  return jobs;
}

/**
 * The problems of a judge check's own `model` alone, for a check item whose other parameters did
 * not validate: its grader's mistakes are reported in the same pass, not once the rest is fixed.
 */
export function graderModelProblems(check: unknown, index: number, locate: Locator): ConfigError[] {
  const judge = isObject(check) ? check.judge : undefined;
  const model = isObject(judge) ? judge.model : undefined;
  const problems: ConfigError[] = [];
  if (model === undefined) return problems;
  // Its parameters too (a temperature out of range, a tool_choice): checkOwnModel says them only
  // beside its own format problems, judgeJob for a check that validated.
  if (collectConfigErrors(problems, () => checkOwnModel(model, [index, 'judge'], locate))) {
    problems.push(...ownParameterProblems(model, (model as GraderModel).provider, [index, 'judge'], locate));
  }
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function judgeJob(params: JudgeParams, index: number, suite: SuiteGrader, locate: Locator): JudgeJob | undefined {
  const at = [index, 'judge'];
  // The judge check's params type leaves `model` open; the grader schema gives it its type.
  const model: unknown = params.model;
  if (model !== undefined) checkOwnModel(model, at, locate);
  // The config's grader problem is said once, at the config: not again as this check's. What it
  // lacks besides (its `model`) is said beside it, where a check would use it as it stands.
  if (suite.invalid && !standsAlone(model as GraderModel | undefined)) {
    if (model === undefined && suite.gap && suite.at) throw suite.at(`${suite.gap}; the judge checks that name no model of their own use this one`);
    return undefined;
  }
  const merged = mergeGrader(suite.model, model as GraderModel | undefined);
  if (!Object.keys(merged).length) {
    throw locate(
      at,
      `a judge check needs a grader model: give it \`model: {provider, model}\` (or a \`script\`), or set a default \`judge: {model: ...}\` in agentcheck.config.yaml${suite.missingHint?.() ?? ''}`,
    );
  }
  const { script, ...llm } = merged;
  // The suite's script (its own was checked above) is held to the script rules where it is used.
  if (script && (model as GraderModel | undefined)?.script === undefined)
    validateScript(script, (path, expected, atKey) => locate([...at, 'model', 'script', ...path], expected, atKey));
  if (!script && (llm.provider === undefined || llm.model === undefined)) {
    const expected = GRADER_NEEDS_MODEL;
    // A check that names no model uses the suite's as it stands: the config is what to fix.
    if (model === undefined && suite.at) throw suite.at(`${expected}; the judge checks that name no model of their own use this one`);
    // Its parameters beside it, held to the provider it names (docs/cli.md, validate).
    throwConfigErrors([locate([...at, 'model'], expected), ...ownParameterProblems(model, llm.provider, at, locate)]);
  }
  const spec: LlmSpec = { ...llm, provider: llm.provider ?? 'scripted', model: llm.model ?? 'scripted' };
  if (spec.provider === 'scripted' && !script) {
    // A check that names no model uses the suite's as it stands: the config is what to fix.
    if (model === undefined && suite.at) throw suite.at(`${SCRIPTED_GRADER_NEEDS_SCRIPT}; the judge checks that name no model of their own use this one`);
    throw locate([...at, 'model'], SCRIPTED_GRADER_NEEDS_SCRIPT);
  }
  throwConfigErrors(ownParameterProblems(model, spec.provider, at, locate));
  const job: JudgeJob = { id: `judge#${index}`, params, llm: spec };
  if (script) job.script = script;
  return job;
}

/**
 * The problems of a check's own grader parameters (the suite's were checked with the config):
 * held to `provider`'s API when it is known, and to what a grader refuses, every one in one pass.
 */
function ownParameterProblems(model: unknown, provider: LlmSpec['provider'] | undefined, at: PathSegments, locate: Locator): ConfigError[] {
  const parameters = isObject(model) && isObject(model.parameters) ? model.parameters : undefined;
  if (!parameters) return [];
  const problems: ConfigError[] = [];
  const where = [...at, 'model', 'parameters'];
  if (provider !== undefined) collectConfigErrors(problems, () => validateLlmParameters({ provider, parameters }, locate, where, GRADER_REFUSED_PARAMETERS));
  collectConfigErrors(problems, () => checkGraderParameters(parameters, where, locate));
  return problems;
}

/**
 * The check's grader keys over the suite's `judge.model`. A check that names another provider
 * (a `script` names the scripted one) keeps nothing of the suite's: its endpoint, parameters and
 * script belong to the other provider, and its API key must never go to that endpoint.
 */
function mergeGrader(suite: GraderModel | undefined, own: GraderModel | undefined): GraderModel {
  if (!own) return { ...suite };
  const ownProvider = providerOf(own);
  if (suite && ownProvider !== undefined && ownProvider !== providerOf(suite)) return { ...own };
  return { ...suite, ...own };
}

/** A check's own grader that needs nothing of the suite's: a script, or both provider and model. */
function standsAlone(own: GraderModel | undefined): boolean {
  return own !== undefined && (own.script !== undefined || (own.provider !== undefined && own.model !== undefined));
}

function providerOf(model: GraderModel): string | undefined {
  return model.provider ?? (model.script ? 'scripted' : undefined);
}

/** A judge check's own `model`: its format, its script's, and a script where the scripted model needs one. */
function checkOwnModel(model: unknown, at: Array<string | number>, locate: Locator): void {
  const format = checkFormat<GraderModelSpec>(graderModelSchema, model, (path, expected, atKey) => locate([...at, 'model', ...path], expected, atKey));
  if (format.errors.length) {
    // Its parameters beside its other keys' problems (a `timeout_ms: 0`), when their provider is sound.
    const provider = soundLlmParts(format, []) ? (model as GraderModel).provider : undefined;
    throwConfigErrors([...format.errors, ...ownParameterProblems(model, provider, at, locate)]);
  }
  const { script, provider } = model as GraderModel;
  if (script?.length === 0) throw locate([...at, 'model', 'script'], GRADER_SCRIPT_EMPTY);
  if (script) validateScript(script, (path, expected, atKey) => locate([...at, 'model', 'script', ...path], expected, atKey));
  else if (provider === 'scripted') throw locate([...at, 'model'], SCRIPTED_GRADER_NEEDS_SCRIPT);
}

/**
 * Grader parameters the judge sets itself or that need tools, which a grader is never sent
 * (docs/verdicts.md, judge): given, they would be replaced or refused by the API at run time.
 */
const GRADER_OWNED: Record<string, string> = {
  response_format: 'the judge sets the answer format itself (a JSON schema of score, passed and reason)',
  tool_choice: 'a grader is sent no tools',
  parallel_tool_calls: 'a grader is sent no tools',
  max_tool_calls: 'a grader is sent no tools',
};

/** The parameter keys a grader refuses: a misspelt parameter's hint does not offer them. */
export const GRADER_REFUSED_PARAMETERS: readonly string[] = Object.keys(GRADER_OWNED);

/** Refuses grader `parameters` the judge owns (`response_format`, `text.format`) or that need tools; located under `at`. */
export function checkGraderParameters(parameters: unknown, at: PathSegments, locate: Locator): void {
  if (!isObject(parameters)) return;
  const problems: ConfigError[] = [];
  for (const key of Object.keys(parameters)) {
    if (Object.hasOwn(GRADER_OWNED, key)) problems.push(locate([...at, key], `"${key}" is not for a grader: ${GRADER_OWNED[key]}`, true));
  }
  // Nor under extra, which would send it all the same.
  if (isObject(parameters.extra)) {
    for (const key of Object.keys(parameters.extra)) {
      if (Object.hasOwn(GRADER_OWNED, key))
        problems.push(locate([...at, 'extra', key], `"${key}" is not for a grader, in extra either: ${GRADER_OWNED[key]}`, true));
    }
    if (isObject(parameters.extra.text) && 'format' in parameters.extra.text) {
      problems.push(locate([...at, 'extra', 'text', 'format'], `"text.format" is not for a grader, in extra either: ${GRADER_OWNED.response_format}`, true));
    }
  }
  if (isObject(parameters.text) && 'format' in parameters.text) {
    problems.push(locate([...at, 'text', 'format'], `"text.format" is not for a grader: ${GRADER_OWNED.response_format}`, true));
  }
  throwConfigErrors(problems);
}

/** A grader with neither a whole model nor a script. */
const GRADER_NEEDS_MODEL = 'a grader model needs `provider` and `model` (or a `script` for the scripted model)';

/**
 * What a grader model as written lacks to grade on its own (no `model`, or the scripted provider
 * without a script), or undefined: the suite's, when its other problems keep it from being used.
 */
export function graderGap(model: unknown): string | undefined {
  if (!isObject(model) || model.script !== undefined) return undefined;
  if (model.provider === 'scripted') return SCRIPTED_GRADER_NEEDS_SCRIPT;
  return model.provider === undefined || model.model === undefined ? GRADER_NEEDS_MODEL : undefined;
}

/** An empty grader script could never answer either. */
export const GRADER_SCRIPT_EMPTY = 'a grader script needs at least one answer: each grading is answered by its first entry';

/** The scripted model answers only from a script: without one a grader could never answer. */
export const SCRIPTED_GRADER_NEEDS_SCRIPT =
  'a scripted grader needs a `script` of its answers, e.g. script: [{text: \'{"score": 1, "passed": true, "reason": "..."}\'}]';
