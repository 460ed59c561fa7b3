import { dirname, resolve } from 'node:path';
import { checkFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import type { PathSegments, SourceDocument } from '../../config/source.js';
import { applyDelta, type DeltaRevision } from '../../engine/revision/delta.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { checkReferences, validateCheck, validateToolName } from '../../verdicts/index.js';
import { isPlainObject } from '../../verdicts/args/json-value.js';
import { partialCheckReferences } from '../../verdicts/run-checks.js';
import type { CustomCheckRef } from '../checks/custom-check-ref.js';
import { checkApprovals, EXTERNAL_NO_GATES, soundApprovalTools } from '../../engine/permissions/check-approvals.js';
import { buildTools } from '../../engine/revision/build-tools.js';
import { startsMcpServers } from './listed-names-check.js';
import { checkScenarioNames, type ScenarioNames } from './check-scenario-names.js';
import { mergeSkills, noLoadSkillReason } from './load-skill-offered.js';
import { customCheckRefs } from './custom-check-refs.js';
import type { RawScenario } from './expand-dataset.js';
import { graderModelProblems, judgeJobs, type JudgeJob } from '../judge/grader-model.js';
import type { LoadContext } from './load-context.js';
import { validateHttpMocks } from '../mocks/validate-mocks.js';
import { emptyMessageProblems } from '../empty-messages.js';
import { scenarioRevision } from './scenario-revision.js';
import { removedByDelta } from './removed-by-delta.js';
import { recordVariantSubject } from './variant-subject.js';
import { expectedVerdictProblems } from './expected-verdict.js';
import { expectFailureProblems, namedPlaceProblems } from './scenario-field-problems.js';
import { scenarioSchema, soundScriptEntries, validateScript } from './scenario-schema.js';
import type { Scenario } from './scenario.js';
import type { ScenarioSpec } from './scenario-format.generated.js';

/** Where a scenario's fields are written: a field's errors point at the scenario, or at the shared defaults it took the field from. */
export function scenarioPlace(doc: SourceDocument, own: RawScenario, defaults: RawScenario, at: PathSegments, defaultsAt: PathSegments) {
  const whereOf = (key: unknown): PathSegments => (typeof key === 'string' && !(key in own) && key in defaults ? defaultsAt : at);
  const locate: Locator = (path, expected, atKey) => doc.error([...whereOf(path[0]), ...path], expected, 'CONFIG_INVALID', atKey);
  return { whereOf, locate };
}

/**
 * One scenario from its own fields and the defaults it inherits, every problem of it in one pass.
 * `own` is a mapping: loadScenarioEntry, its one caller, refuses anything else before rendering rows.
 */
export function loadOneScenario(
  doc: SourceDocument,
  own: RawScenario,
  defaults: RawScenario,
  at: PathSegments,
  defaultsAt: PathSegments,
  fileId: string,
  context: LoadContext,
): Scenario {
  const merged: RawScenario = { ...defaults, ...own };
  const { whereOf, locate } = scenarioPlace(doc, own, defaults, at, defaultsAt);
  // Every problem in one pass: with format problems, the scenario is read only where `format`
  // says it is valid, and what needs the build runs only when the build could be loaded.
  const format = checkFormat<ScenarioSpec>(scenarioSchema, merged, locate);
  const ok = (...path: PathSegments) => format.valid(path);
  const problems: ConfigError[] = [...format.errors];
  const spec = format.value;
  const dir = dirname(doc.file);
  const name = spec.name;
  // A misspelt `agent` key leaves it unset with no error of its own (the typo says it): no build.
  const agentOk = ok('agent') && typeof spec.agent === 'string';
  const agentFile = resolve(dir, agentOk ? spec.agent : '');
  // Beside a build that cannot be loaded (or a delta or model that does not apply), the scenario's
  // own problems are still said: only what needs the build (names, approvals) waits for it.
  const revisions = scenarioRevision(
    spec,
    agentFile,
    { doc, dir, whereOf, locate },
    context,
    // `model`'s llm keys, each on its own and whatever its script holds: a bad `timeout_ms` or a
    // script typo does not hide the override's other problems.
    { agent: agentOk, delta: ok('delta'), model: format.typed(['model']), modelKey: (key) => ok('model', key) },
    problems,
  );
  const { revision } = revisions;
  // Names are held to the build after the scenario's delta: one it took away is said to be gone because of it.
  const namesAt = removedByDelta(spec.delta === undefined ? undefined : revisions.beforeDelta?.build, revision?.build, locate, "the scenario's delta");

  const builds = revision ? [revision.build, ...variantBuilds(revision, context)] : [];
  // Each entry on its own: an entry with a format problem (reported) is left out of the checks
  // below as an empty entry, its index kept, and hides no other entry's problem.
  const scriptOk = (index: number) => ok('model', 'script', index);
  const script = format.typed(['model', 'script']) && spec.model?.script ? soundScriptEntries(spec.model.script, scriptOk) : undefined;
  if (script) {
    collectConfigErrors(problems, () => validateScript(script, (path, expected, atKey) => locate(['model', 'script', ...path], expected, atKey), scriptOk));
  }
  // A blank message says nothing: refused as test-run refuses it in its --inputs file (docs/formats.md, inputs).
  if (format.typed(['inputs', 'messages'])) {
    problems.push(...emptyMessageProblems(spec.inputs.messages, (path, expected, atKey) => locate(['inputs', 'messages', ...path], expected, atKey)));
  }
  // Each mock the format check left intact, so a typo in one mock does not hide another's problem.
  const mocks = format.typed(['mocks', 'http']) ? spec.mocks?.http : undefined;
  if (mocks) {
    const mocksAt: Locator = (path, expected, atKey) => locate(['mocks', 'http', ...path], expected, atKey);
    collectConfigErrors(problems, () => validateHttpMocks(mocks, mocksAt, (path) => ok('mocks', 'http', ...path)));
  }
  const approvals = spec.approvals;
  if (approvals && format.typed(['approvals']) && revision) {
    // Each answer on its own, beside a bad `default` or another answer's format problem (docs/cli.md,
    // validate: every problem in one pass): an unknown tool is still said.
    const sound = soundApprovalTools(approvals, (path) => ok('approvals', ...path));
    collectConfigErrors(problems, () => checkApprovals(sound, builds, (path, expected, atKey) => namesAt(['approvals', ...path], expected, atKey)));
  }
  // An external run never pauses: answers to pauses could only be left unused (docs/external-agents.md).
  if (spec.resume !== undefined && builds.some((build) => build.external)) {
    problems.push(locate(['resume'], `${EXTERNAL_NO_GATES}, so its run never pauses and resume has nothing to answer; remove resume`, true));
  }

  const expect = format.typed(['expect']) ? (spec.expect ?? {}) : {};
  const terminalValid =
    expect.terminal_tool === undefined ||
    (ok('expect', 'terminal_tool') && collectConfigErrors(problems, () => validateToolName(expect.terminal_tool, ['expect', 'terminal_tool'], locate)));
  if (ok('expect', 'verdict')) problems.push(...expectedVerdictProblems(expect, locate));
  if (ok('expect_failure')) problems.push(...expectFailureProblems(spec, locate));
  const checks = format.typed(['expect', 'checks']) ? (expect.checks ?? []) : [];
  const checksAt: Locator = (path, expected, atKey) => locate(['expect', 'checks', ...path], expected, atKey);
  const checkIndexes = checks.flatMap((item, index) =>
    ok('expect', 'checks', index) && collectConfigErrors(problems, () => validateCheck(item, index, checksAt)) ? [index] : [],
  );
  const ownSkills = ok('skills') && spec.skills ? resolvedSkills(spec.skills, dir) : undefined;
  // With the suite's or the scenario's `skills` at fault (a misspelt delivery), what the run
  // delivers is not known: load_skill is not refused by a guess beside that problem.
  const skillsKnown = ok('skills') && !context.skillsInvalid;
  const names: ScenarioNames | undefined = revision && {
    terminalTool: terminalValid ? expect.terminal_tool : undefined,
    references: [...checkReferences(checks, checkIndexes), ...partialCheckReferences(checks, checkIndexes)],
    script,
    allowUnknownTools: spec.model?.allow_unknown_tools === true,
    context: isPlainObject(spec.inputs?.context) ? spec.inputs.context : undefined,
    noLoadSkill: skillsKnown
      ? noLoadSkillReason(builds, mergeSkills(context.skills, ownSkills), { name: "this scenario's run", overlayFlag: context.overlayFlag })
      : undefined,
  };
  if (names) problems.push(...checkScenarioNames(names, builds, namesAt));
  let customChecks: CustomCheckRef[] = [];
  let judges: JudgeJob[] = [];
  // These read the check items whose parameters validated (the others are reported above):
  // an item left out is an empty object, so the indexes in their paths stay right.
  if (ok('expect', 'checks')) {
    const valid = new Set(checkIndexes);
    const validated = checks.map((check, index) => (valid.has(index) ? check : {}));
    collectConfigErrors(problems, () => {
      customChecks = customCheckRefs(validated, dir, locate);
    });
    collectConfigErrors(problems, () => {
      const missingHint = () => context.passedOverConfigHint?.(doc.file, 'judge.model') ?? '';
      judges = judgeJobs(
        validated,
        { model: context.suiteGrader, at: context.suiteGraderAt, invalid: context.suiteGraderInvalid, gap: context.suiteGraderGap, missingHint },
        checksAt,
      );
    });
    checks.forEach((check, index) => {
      if (!valid.has(index)) problems.push(...graderModelProblems(check, index, checksAt));
    });
  }
  problems.push(...namedPlaceProblems(spec, format, dir, locate, (context.workspaceFolders ??= new Map())));
  // The suite's variants are checked against its build also when the scenario is not loaded: it has
  // problems, or its file has others and loads none of its scenarios (one pass).
  recordVariantSubject(context, fileId, spec, (key) => ok(key), agentFile, revisions);
  throwConfigErrors(problems);
  if (!revision) throw new Error('unreachable: a scenario without format problems has its build loaded');

  const scenario: Scenario = {
    id: `${fileId}#${name}`,
    name,
    file: doc.file,
    agentFile,
    revision,
    inputs: spec.inputs,
    expect: { ...expect, checks },
    tags: spec.tags ?? [],
  };
  if (spec.description !== undefined) scenario.description = spec.description;
  if (spec.delta !== undefined) scenario.delta = spec.delta;
  if (spec.workspace !== undefined) scenario.workspace = resolve(dir, spec.workspace);
  if (script) scenario.script = script;
  if (customChecks.length) scenario.customChecks = customChecks;
  if (judges.length) scenario.judges = judges;
  if (approvals !== undefined) scenario.approvals = approvals;
  // With variants, a run whose servers list their tools needs the other builds to tell a typo from another variant's tool.
  const openServers = builds.some((build) => buildTools(build).openServers.length > 0);
  if (approvals?.tools && builds.length > 1 && openServers) scenario.approvalsHeldTo = builds;
  if (names && startsMcpServers(builds)) scenario.namesHeldToListedTools = { names, builds, locate };
  if (spec.mocks !== undefined) scenario.mocks = spec.mocks;
  if (spec.resume !== undefined) scenario.resume = spec.resume;
  if (spec.expect_failure !== undefined) scenario.expect_failure = spec.expect_failure;
  if (spec.timeout_ms !== undefined) scenario.timeout_ms = spec.timeout_ms;
  if (spec.skip !== undefined) scenario.skip = spec.skip;
  if (ownSkills) scenario.skills = ownSkills;
  return scenario;
}

/** A scenario's `skills`, its folders resolved against the scenario file's folder. */
function resolvedSkills(skills: NonNullable<ScenarioSpec['skills']>, dir: string): NonNullable<Scenario['skills']> {
  return {
    forced: (skills.forced ?? []).map((path) => resolve(dir, path)),
    overlay: (skills.overlay ?? []).map((path) => resolve(dir, path)),
    delivery: skills.delivery,
  };
}

/** The scenario's revision under each of the suite's variants (those that apply cleanly). */
function variantBuilds(revision: DeltaRevision, context: LoadContext): AgentBuild[] {
  const builds: AgentBuild[] = [];
  for (const [name, delta] of Object.entries(context.variants ?? {})) {
    try {
      builds.push(applyDelta(revision, delta, `variant ${name}`).build);
    } catch {
      // A variant that does not apply is the suite's error, reported where variants are applied.
    }
  }
  return builds;
}
