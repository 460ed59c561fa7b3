import { assertFormat, type Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import type { ScriptEntry } from '../../engine/providers/scripted.js';
import { validateLlmParameters } from '../../engine/providers/validate-parameters.js';
import { llmProperties } from '../../engine/revision/schema.js';
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
 * The grader of every judge check in a scenario's checks, at load time: the check's own
 * `model` over the suite's `judge.model` (docs/formats.md). A judge check with no grader
 * anywhere is a located ConfigError, so a suite never starts with a check it cannot grade.
 */
export function judgeJobs(
  checks: ReadonlyArray<Record<string, unknown>>,
  suite: { model?: GraderModel; at?: (expected: string) => ConfigError },
  locate: Locator,
): JudgeJob[] {
  const suiteGrader = suite.model;
  const jobs: JudgeJob[] = [];
  checks.forEach((check, index) => {
    if (!('judge' in check)) return;
    const params = check.judge as JudgeParams;
    const at = [index, 'judge'];
    // The judge check's params type leaves `model` open; the grader schema gives it its type.
    const model: unknown = params.model;
    if (model !== undefined)
      assertFormat<GraderModelSpec>(graderModelSchema, model, (path, expected, atKey) => locate([...at, 'model', ...path], expected, atKey));
    const merged: GraderModel = { ...suiteGrader, ...model };
    if (!Object.keys(merged).length) {
      throw locate(
        at,
        'a judge check needs a grader model: give it `model: {provider, model}` (or a `script`), or set a default `judge: {model: ...}` in agentcheck.config.yaml',
      );
    }
    const { script, ...llm } = merged;
    if (script) validateScript(script, (path, expected, atKey) => locate([...at, 'model', 'script', ...path], expected, atKey));
    if (!script && (llm.provider === undefined || llm.model === undefined)) {
      const expected = 'a grader model needs `provider` and `model` (or a `script` for the scripted model)';
      // A check that names no model uses the suite's as it stands: the config is what to fix.
      if (model === undefined && suite.at) throw suite.at(`${expected}; the judge checks that name no model of their own use this one`);
      throw locate([...at, 'model'], expected);
    }
    const spec: LlmSpec = { ...llm, provider: llm.provider ?? 'scripted', model: llm.model ?? 'scripted' };
    // The check's own parameters, held to its grader's provider (the suite's were checked with the config).
    const ownParameters = (model as { parameters?: Record<string, unknown> } | undefined)?.parameters;
    if (ownParameters) validateLlmParameters({ provider: spec.provider, parameters: ownParameters }, locate, [...at, 'model', 'parameters']);
    const job: JudgeJob = { id: `judge#${index}`, params, llm: spec };
    if (script) job.script = script;
    jobs.push(job);
  });
  return jobs;
}
