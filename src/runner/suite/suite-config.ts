import { isSelectableName } from '../scenario/selectable-name.js';
import { dirname, resolve } from 'node:path';
import { checkFormat, documentLocator } from '../../config/assert-format.js';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';
import { deltaSchema } from '../../engine/revision/delta.js';
import { deltaOwnProblems } from '../../engine/revision/delta-own-problems.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { validateLlmParameters } from '../../engine/providers/validate-parameters.js';
import { soundLlmParts } from '../../engine/providers/sound-llm-parts.js';
import type { LlmSpec } from '../../engine/revision/types.js';
import { formatPath, SourceDocument } from '../../config/source.js';
import { llmProperties } from '../../engine/revision/llm-schema.js';
import { checkGraderParameters, GRADER_REFUSED_PARAMETERS, GRADER_SCRIPT_EMPTY, graderGap, graderModelSchema } from '../judge/grader-model.js';
import { skillsSchema } from '../scenario/scenario-schema.js';
import { validateScript } from '../../engine/providers/script-schema.js';
import { skillFolderProblems } from '../../skills/skill-folder-problems.js';
import { CASSETTE_MODES } from '../cassettes/cassette.js';
import { fileInPlaceOfFolder } from '../files/file-in-place-of-folder.js';
import { cassetteDirProblem, cassetteMode, type CassetteConfig } from '../cassettes/cassette-settings.js';
import { REPORTER_NAMES } from '../reporters/index.js';
import type { SkillOptionsSpec, SuiteConfigSpec } from './suite-config-format.generated.js';
import { withKeptProblems, withKeptProblemsKeeping } from '../../config/kept-problems.js';
import { refuseEmptyPath } from '../../config/empty-values.js';
import { assertMappingFile, FILE_KINDS } from '../../config/document-kind.js';
import { suiteConfigIn } from './suite-config-file.js';
import { isAgentBuildShape } from '../scenario/build-shape.js';
import { isReportShape, isScenarioShape } from '../scenario/document-shape.js';

// The reporters `--reporter` and `reporters` accept come from the reporter registry.
export { REPORTER_NAMES, type ReporterName } from '../reporters/index.js';

/**
 * agentcheck.config.yaml (docs/formats.md, Suite config), with paths made absolute. The file's
 * own type, SuiteConfigSpec, is generated from suiteConfigSchema (docs/architecture.md, Formats).
 */
export interface SuiteConfig extends Omit<SuiteConfigSpec, 'variants' | 'skills' | 'cassettes'> {
  file: string | null;
  variants: Record<string, unknown>;
  /** Variant name -> where its delta sits in the config file (for located errors), in the order written (configVariantNames). */
  variantSources: Map<string, { doc: SourceDocument; path: Array<string | number> }>;
  /** The config file, to locate a problem of its `judge.model` found where a judge check uses it. */
  source?: SourceDocument;
  /**
   * The config's `judge` has problems of its own, kept and said at the config: the judge checks
   * that would use its grader are not told they have none (one problem, said once).
   */
  judgeInvalid?: boolean;
  /** With judgeInvalid: what its `judge.model` lacks besides, said where a judge check would use it as it stands. */
  judgeGap?: string;
  /**
   * The config's `skills` has format problems, kept and said at the config (a misspelt delivery):
   * what a run delivers is not known, so scenarios naming load_skill are not refused by a guess.
   */
  skillsInvalid?: boolean;
  /**
   * Variants left out for problems of their own, said at the config; with `variantsInvalid`, the
   * `variants` key itself is no mapping of names. Selecting such a name (`--variant lean`) is not
   * also "unknown": its problem is already said.
   */
  leftOutVariants?: string[];
  variantsInvalid?: boolean;
  skills: { forced: string[]; overlay: string[]; delivery?: SkillOptionsSpec['delivery'] };
  /** Record / replay (docs/cassettes.md); `dir` made absolute. `--cassettes` wins over `mode`. */
  cassettes?: CassetteConfig;
  baseDir: string;
}

/** agentcheck.config.yaml (docs/formats.md, Suite config). */
export const suiteConfigSchema = {
  $id: 'agentcheck:suite-config',
  type: 'object',
  additionalProperties: false,
  properties: {
    scenarios: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
    variants: { type: 'object', additionalProperties: { type: 'object' } },
    repeat: { type: 'integer', minimum: 1 },
    concurrency: { type: 'integer', minimum: 1 },
    timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS },
    // An empty list (an unset templated one) is refused, as `--reporter ''` is: never read as "no reports".
    reporters: { type: 'array', minItems: 1, items: { enum: [...REPORTER_NAMES] } },
    out: { type: 'string', minLength: 1 },
    skills: skillsSchema,
    model: { type: 'object', additionalProperties: false, properties: llmProperties },
    judge: { type: 'object', additionalProperties: false, properties: { model: graderModelSchema } },
    cassettes: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: { enum: [...CASSETTE_MODES] },
        dir: { type: 'string', minLength: 1 },
      },
    },
  },
};

/** An empty config rooted at `cwd`: what runs without agentcheck.config.yaml. */
export function emptySuiteConfig(cwd = process.cwd()): SuiteConfig {
  return { file: null, variants: {}, variantSources: new Map(), skills: { forced: [], overlay: [] }, baseDir: cwd };
}

/**
 * The config a `run` with these paths uses when no --config is given: a single folder argument
 * that holds its own agentcheck.config.yaml (or `.yml`, `.json`; `agentcheck run
 * scenarios/toolsets`), else none (then the current folder's is read).
 */
export function folderConfig(paths: readonly string[], cwd = process.cwd()): string | undefined {
  if (paths.length !== 1) return undefined;
  return suiteConfigIn(resolve(cwd, paths[0]));
}

/**
 * Reads `--config FILE`, else the suite config of `cwd` (agentcheck.config.yaml, `.yml` or
 * `.json`) if there is one. `cassettes` is the `--cassettes` flag, which wins over the config's
 * mode when deciding whether `cassettes.dir` is used.
 */
export function loadSuiteConfig(file: string | undefined, cwd = process.cwd(), options: SuiteConfigOptions = {}): SuiteConfig {
  // '' (an unset variable) is no file: never read as "search the folder" or as no config.
  refuseEmptyPath(file, 'a file path', { file: 'loadSuiteConfig' });
  refuseEmptyPath(cwd, 'a folder path', { file: 'loadSuiteConfig', path: 'cwd' });
  const path = file ? resolve(cwd, file) : suiteConfigIn(cwd);
  if (path === undefined) return emptySuiteConfig(cwd);
  const doc = SourceDocument.read(path, { problems: 'keep' });
  // A merge key is one problem among the others, the keys it stands for read as written out: the
  // suite is still checked (docs/formats.md). A key given twice or a number that cannot be read as
  // written leaves the file as a whole in doubt: its problems are said alone (docs/cli.md, validate).
  const mergeKeysOnly = doc.keptProblems().length === doc.keptMergeKeys.length;
  if (!options.keep || !mergeKeysOnly) return withKeptProblems(doc, (read) => suiteConfigOf(read, path, options.cassettes, undefined));
  return withKeptProblemsKeeping(doc, (read, keep) => suiteConfigOf(read, path, options.cassettes, keep), options.keep, leavesSuiteCheckable);
}

/** How loadSuiteConfig reads a config. */
export interface SuiteConfigOptions {
  /** The `--cassettes` flag. */
  cassettes?: string;
  /**
   * When given, problems that leave the suite checkable (all but those of `scenarios` or of the
   * file as a whole) go here and the config is returned without the parts that have them, so the
   * suite's scenarios and variants are checked in the same pass (docs/cli.md, validate).
   */
  keep?: ConfigError[];
}

/**
 * A scenario file or an agent build given as the config (`--config x.scenario.yaml`, an easy slip
 * when both sit in one folder): said once, with what --config takes, not as each key unknown.
 */
function refuseOtherKinds(doc: SourceDocument): void {
  const takes = `--config takes a suite config (agentcheck.config.yaml: ${Object.keys(suiteConfigSchema.properties).slice(0, 4).join(', ')}, ...)`;
  if (isAgentBuildShape(doc.value)) {
    throw doc.error([], `is an agent build (id and agent at the top), not a suite config: ${takes}; to run a build once, use agentcheck test-run --agent FILE`);
  }
  if (isReportShape(doc.value)) {
    throw doc.error([], `is a report.json (a run's results), not a suite config: ${takes}; to rerun its failures, use agentcheck run --only-failed FILE`);
  }
  if (isScenarioShape(doc.value, doc.file)) {
    throw doc.error([], `is a scenario file, not a suite config: give it as a path (agentcheck run FILE); ${takes}`);
  }
}

/**
 * A problem of the config whose suite can still be found and checked: not at `scenarios` or the
 * file as a whole. A `judge` problem is (judgeInvalid keeps it from being said again per check).
 */
function leavesSuiteCheckable(problem: ConfigError): boolean {
  const key = problem.path?.split(/[.[]/)[0];
  return key !== undefined && key !== 'scenarios';
}

function suiteConfigOf(doc: SourceDocument, path: string, cassettesFlag: string | undefined, keep: ConfigError[] | undefined): SuiteConfig {
  // An empty file (or comments only) is a config with no settings; `null` or a list is no config.
  if (!doc.holdsNothing()) assertMappingFile(doc, FILE_KINDS.suiteConfig);
  refuseOtherKinds(doc);
  const format = checkFormat<SuiteConfigSpec>(suiteConfigSchema, doc.value ?? {}, documentLocator(doc));
  const raw = format.value;
  const baseDir = dirname(path);
  // Every problem in one pass (docs/cli.md, validate): the format's, then each variant name and
  // skill folder the format problems leave intact.
  // A variant written as a file path, as a scenario's delta may be: said so, not "expected object".
  const given = (doc.value as { variants?: unknown } | null)?.variants;
  const fileVariants = new Set(
    given && typeof given === 'object' && !Array.isArray(given)
      ? Object.entries(given).flatMap(([name, value]) => (typeof value === 'string' ? [name] : []))
      : [],
  );
  const problems = [
    ...format.errors.filter((error) => ![...fileVariants].some((name) => error.path === formatPath(['variants', name]))),
    ...[...fileVariants].map((name) =>
      doc.error(['variants', name], 'a variant is an inline delta {set, remove}; a delta file is not read here (write its set and remove inline)'),
    ),
  ];
  const variants = (format.typed(['variants']) ? raw.variants : undefined) ?? {};
  // The variants with problems of their own: left out of a config returned beside its problems.
  const badVariants = new Set<string>();
  const before = () => problems.length;
  for (const [name, delta] of Object.entries(variants)) {
    // Each variant is a delta: its own problems (format, `__proto__` keys, path syntax, each beside
    // the others) belong to the config, not to each build it meets. One whose format is sound is
    // still applied, so its problems against the builds are said beside them (variantRevision).
    const own = format.valid(['variants', name]) ? deltaOwnProblems(delta, documentLocator(doc, ['variants', name]), deltaSchema, true) : undefined;
    problems.push(...(own?.problems ?? []));
    if (!own?.set) badVariants.add(name);
    if (name === 'base') {
      problems.push(doc.error(['variants', 'base'], 'the variant name "base" is reserved for the unchanged revision', 'CONFIG_INVALID', true));
      badVariants.add(name);
    }
    // --variant takes a comma-separated list and rows read `<variant>#<repeat>`: names must survive both.
    else if (!isSelectableName(name, /[,#]/)) {
      const expected = `the variant name ${JSON.stringify(name)} cannot be selected with --variant: expected a non-empty name without commas, "#" or surrounding spaces`;
      problems.push(doc.error(['variants', name], expected, 'CONFIG_INVALID', true));
      badVariants.add(name);
    }
  }
  // The grader's parameters are held to its provider's API, as an agent's are (docs/formats.md).
  const judgeProblems = before();
  // Beside a bad key of its own (a `timeout_ms: 0`), as long as its provider and parameters are sound.
  const graderLlm = soundLlmParts(format, ['judge', 'model']) ? raw.judge?.model : undefined;
  if (graderLlm?.provider && graderLlm.parameters) {
    collectConfigErrors(problems, () =>
      validateLlmParameters(
        { provider: graderLlm.provider as LlmSpec['provider'], parameters: graderLlm.parameters },
        documentLocator(doc),
        ['judge', 'model', 'parameters'],
        GRADER_REFUSED_PARAMETERS,
      ),
    );
  }
  const graderParameters = format.valid(['judge', 'model', 'parameters']) ? raw.judge?.model?.parameters : undefined;
  if (graderParameters) collectConfigErrors(problems, () => checkGraderParameters(graderParameters, ['judge', 'model', 'parameters'], documentLocator(doc)));
  // Its script is held to the script rules here, once, as its parameters are (not at each judge check).
  const graderScript = format.typed(['judge', 'model', 'script']) ? raw.judge?.model?.script : undefined;
  if (graderScript?.length === 0) problems.push(doc.error(['judge', 'model', 'script'], GRADER_SCRIPT_EMPTY));
  else if (graderScript) {
    const entryOk = (index: number) => format.valid(['judge', 'model', 'script', index]);
    collectConfigErrors(problems, () => validateScript(graderScript, documentLocator(doc, ['judge', 'model', 'script']), entryOk));
  }
  const judgeInvalid = !format.valid(['judge']) || before() > judgeProblems;
  // The suite model's parameters, when it names its provider, are held to that provider's API
  // here, once; against a build's provider they are checked where they meet it (docs/formats.md).
  const modelProblems = before();
  const model = soundLlmParts(format, ['model']) ? raw.model : undefined;
  if (model?.provider && model.parameters) {
    collectConfigErrors(problems, () =>
      validateLlmParameters({ provider: model.provider as LlmSpec['provider'], parameters: model.parameters }, documentLocator(doc), ['model', 'parameters']),
    );
  }
  const modelOk = format.valid(['model']) && before() === modelProblems;
  // Output folders a file stands in the way of: validate says so too, at the config's line. The
  // cassettes folder only in a mode that uses it (the flag's, else the config's).
  const cassettesDir = format.valid(['cassettes', 'dir']) ? raw.cassettes?.dir : undefined;
  const mode = cassetteMode(cassettesFlag, format.valid(['cassettes', 'mode']) ? raw.cassettes?.mode : undefined);
  for (const [key, where] of [
    [['out'], raw.out !== undefined && format.valid(['out']) ? fileInPlaceOfFolder(resolve(baseDir, raw.out)) : undefined],
    [['cassettes', 'dir'], cassettesDir === undefined ? undefined : cassetteDirProblem(mode, resolve(baseDir, cassettesDir))],
  ] as const) {
    if (where) problems.push(doc.error([...key], `must be a folder, but ${where}, not a folder`));
  }
  // Skill folders are checked now, so a typo stops the suite before anything runs.
  for (const key of ['forced', 'overlay'] as const) {
    if (!format.valid(['skills', key])) continue;
    (raw.skills?.[key] ?? []).forEach((folder, index) =>
      problems.push(...skillFolderProblems(resolve(baseDir, folder), (expected) => doc.error(['skills', key, index], expected))),
    );
  }
  if (problems.length) {
    if (!keep || !problems.every(leavesSuiteCheckable)) throwConfigErrors(problems);
    keep?.push(...problems);
  }
  // With problems kept, only the parts that have none are used: the rest is the config's to fix.
  const valid = (key: keyof SuiteConfigSpec) => format.valid([key]);
  const usable = Object.fromEntries(Object.entries(variants).filter(([name]) => !badVariants.has(name)));
  // In the order written: the config's variants run in it (a name like `2` would come first in `usable`).
  const variantSources = new Map(doc.keysInOrder(['variants'], Object.keys(usable)).map((name) => [name, { doc, path: ['variants', name] }]));
  const skills = valid('skills') ? raw.skills : undefined;
  const cassettes = valid('cassettes') ? raw.cassettes : undefined;
  return {
    source: doc,
    file: path,
    scenarios: raw.scenarios,
    variants: usable,
    variantSources,
    repeat: valid('repeat') ? raw.repeat : undefined,
    concurrency: valid('concurrency') ? raw.concurrency : undefined,
    timeout_ms: valid('timeout_ms') ? raw.timeout_ms : undefined,
    reporters: valid('reporters') ? raw.reporters : undefined,
    out: raw.out === undefined || !valid('out') ? undefined : resolve(baseDir, raw.out),
    skills: {
      forced: (skills?.forced ?? []).map((p) => resolve(baseDir, p)),
      overlay: (skills?.overlay ?? []).map((p) => resolve(baseDir, p)),
      delivery: skills?.delivery,
    },
    ...(valid('skills') ? {} : { skillsInvalid: true }),
    ...(badVariants.size ? { leftOutVariants: [...badVariants] } : {}),
    ...(given !== undefined && !format.typed(['variants']) ? { variantsInvalid: true } : {}),
    model: modelOk ? raw.model : undefined,
    judge: judgeInvalid ? undefined : raw.judge,
    ...(judgeInvalid ? { judgeInvalid, judgeGap: graderGap(raw.judge?.model) } : {}),
    cassettes: cassettes && { mode: cassettes.mode, dir: cassettes.dir === undefined ? undefined : resolve(baseDir, cassettes.dir) },
    baseDir,
  };
}
