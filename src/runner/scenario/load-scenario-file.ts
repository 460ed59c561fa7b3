import { isDeltaShape } from '../../engine/revision/delta-shape.js';
import { closestWord } from '../../config/did-you-mean.js';
import { checkFormat } from '../../config/assert-format.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import { SourceDocument, type PathSegments } from '../../config/source.js';
import { SCENARIO_MERGE_KEY_ADVICE } from '../../config/yaml-merge-keys.js';
import type { LoadContext } from './load-context.js';
import { loadScenarioEntry } from './load-scenario-entry.js';
import type { RawScenario } from './expand-dataset.js';
import { scenarioFileId, type FoundScenarioFile } from './discover.js';
import { isAgentBuildShape } from './build-shape.js';
import { isSuiteConfigShape } from './document-shape.js';
import { scenarioFileSchema } from './scenario-schema.js';
import type { Scenario } from './scenario.js';
import type { ScenarioFileSpec } from './scenario-format.generated.js';
import { withKeptProblems } from '../../config/kept-problems.js';
import { assertMappingFile, FILE_KINDS } from '../../config/document-kind.js';

/** Loads one scenario file: one scenario, or `scenarios:` with `defaults` (docs/formats.md, Scenario). */
export function loadScenarioFile(found: FoundScenarioFile, context: LoadContext): Scenario[] {
  const doc = SourceDocument.read(found.file, { problems: 'keep', mergeKeyAdvice: scenarioMergeKeyAdvice });
  // A file of another kind is refused once, saying what it is, without the problems kept for a
  // scenario file's loader (a merge key in an agent build is the build's to report, in its words).
  const otherKind = otherKindOfFile(doc);
  if (otherKind) throw otherKind;
  return withKeptProblems(doc, (read) => loadScenarioDocument(read, found, context));
}

/**
 * The defaults advice, for a merge key directly in a scenario only: at the top of a one-scenario
 * file or of an entry of `scenarios:`, where the keys it brings in could be a scenarios file's
 * defaults. At the top of a scenarios file (one holding `scenarios`, written out or brought in by
 * that `<<`: `value` has its merge keys applied), in `defaults`, or inside a scenario's key
 * (`inputs: {<<: ...}`), the keys are to be written out.
 */
function scenarioMergeKeyAdvice(path: PathSegments, value: unknown): string | undefined {
  const holdsScenarios = value !== null && typeof value === 'object' && Object.hasOwn(value, 'scenarios');
  const inScenario = path.length === 1 ? !holdsScenarios : path.length === 3 && path[0] === 'scenarios' && typeof path[1] === 'number';
  return inScenario ? SCENARIO_MERGE_KEY_ADVICE : undefined;
}

/**
 * Why a file given where a scenario file is expected is of another kind, with what takes it: an
 * agent build (`agentcheck run agents/bot.yaml`), a suite config or a delta, said once, not as
 * five format errors or a scenario's unknown keys. Its kind is what its keys say, a `<<`'s among
 * them (the document's value has its merge keys applied). Undefined for a scenario file.
 */
function otherKindOfFile(doc: SourceDocument): ConfigError | undefined {
  const raw = doc.value;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  if (isAgentBuildShape(raw)) {
    return doc.error(
      [],
      'is an agent build (id and agent at the top), not a scenario file: run takes scenario files (*.scenario.yaml, *.scenarios.yaml) or folders of them; to run a build once, use agentcheck test-run --agent FILE',
    );
  }
  if (isSuiteConfigShape(raw, doc.file)) {
    return doc.error([], 'is a suite config, not a scenario file: give it with --config FILE (run and validate read it from there)');
  }
  if (isDeltaShape(raw)) {
    return doc.error([], 'is a delta {set, remove}, not a scenario file: a scenario names it in delta:, test-run takes it with --delta FILE');
  }
  return undefined;
}

function loadScenarioDocument(doc: SourceDocument, found: FoundScenarioFile, context: LoadContext): Scenario[] {
  assertMappingFile(doc, FILE_KINDS.scenarioFile);
  const value = doc.value as object;
  const fileId = scenarioFileId(found.file, found.root);
  const raw = value as RawScenario;
  if (!('scenarios' in raw)) {
    // `scenario:` or `scenarioes:` holding a list: the list was meant, not one scenario with unknown keys.
    const misspelt = Object.keys(raw).find((key) => Array.isArray(raw[key]) && closestWord(key, ['scenarios']) !== undefined);
    if (misspelt !== undefined) {
      throw doc.error(
        [misspelt],
        `unknown key "${misspelt}" (did you mean "scenarios"?): a file of several scenarios lists them under scenarios`,
        'CONFIG_INVALID',
        true,
      );
    }
    return loadScenarioEntry(doc, raw, {}, [], [], fileId, context);
  }

  const file = checkFormat<ScenarioFileSpec>(scenarioFileSchema, raw, (path, expected, atKey) => doc.error(path, expected, 'CONFIG_INVALID', atKey));
  const problems: ConfigError[] = [...file.errors];
  // Without a list, or with defaults that are not a mapping, the scenarios cannot be read.
  if (!file.typed(['scenarios']) || !file.typed(['defaults'])) throwConfigErrors(problems);
  const spec = file.value;
  const defaults: RawScenario = spec.defaults ?? {};
  const names = new Map<string, number>();
  // Every scenario of the file is checked, so one pass reports every problem (a problem of the
  // defaults, met again by each scenario, is reported once).
  const loaded: Scenario[] = [];
  spec.scenarios.forEach((scenario, index) => {
    const at = ['scenarios', index];
    if (!file.valid(at)) return;
    // Names are compared also for a scenario with problems: a duplicate is not left for later.
    let entryNames = writtenName(scenario, defaults);
    collectConfigErrors(problems, () => {
      const entry = loadScenarioEntry(doc, scenario, defaults, at, ['defaults'], fileId, context);
      loaded.push(...entry);
      entryNames = entry.map((one) => one.name);
    });
    for (const name of entryNames) {
      const previous = names.get(name);
      if (previous !== undefined)
        problems.push(doc.error([...at, 'name'], `duplicate scenario name "${name}" (also scenarios[${previous}]); names must be unique within a file`));
      else names.set(name, index);
    }
  });
  throwConfigErrors(problems);
  return loaded;
}

/** The name an entry writes (its own or the defaults'), when it has one and no dataset renders it per row. */
function writtenName(own: RawScenario, defaults: RawScenario): string[] {
  if ('dataset' in own || 'dataset' in defaults) return [];
  const name = 'name' in own ? own.name : defaults.name;
  return typeof name === 'string' && name.length > 0 ? [name] : [];
}
