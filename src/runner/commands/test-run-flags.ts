import { assertListFile, assertMappingFile, FILE_KINDS } from '../../config/document-kind.js';
import { resolve } from 'node:path';
import { assertFormat, checkFormat, documentLocator, memoryLocator, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import { SourceDocument } from '../../config/source.js';
import { buildAgent } from '../../engine/revision/build-agent.js';
import { applyDelta, type DeltaRevision } from '../../engine/revision/delta.js';
import { loadAgentFile } from '../agent-file.js';
import type { AgentBuild, Revision } from '../../engine/revision/types.js';
import { removedByDelta } from '../scenario/removed-by-delta.js';
import { isAgentBuildShape } from '../scenario/build-shape.js';
import { checkScript } from '../../engine/providers/script-schema.js';
import { SCRIPT_MISSING_MESSAGE, type ScriptEntry } from '../../engine/providers/scripted.js';
import { validateToolName } from '../../verdicts/tool-name.js';
import { workspaceFolderProblem } from '../files/walk-files.js';
import { runsDir } from '../resume/run-checkpoint-file.js';
import { validateHttpMocks } from '../mocks/validate-mocks.js';
import { approvalsProblems } from '../../engine/permissions/approvals-problems.js';
import { TEST_RUN_NO_LOAD_SKILL } from '../scenario/load-skill-offered.js';
import { checkScenarioNames, TEST_RUN_HUMAN_INPUT_HINT, TEST_RUN_UNKNOWN_TOOLS_HINT, type ScenarioNames } from '../scenario/check-scenario-names.js';
import { listedNamesCheck, type ListedNamesCheck } from '../scenario/listed-names-check.js';
import type { ApprovalsSpec, MocksSpec, ScenarioInputsSpec } from '../scenario/scenario-format.generated.js';
import { scenarioProperties } from '../scenario/scenario-schema.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../suite/timeouts.js';
import type { TestRunRequest } from '../test-run.js';
import { emptyMessageProblems, emptyMessageText } from '../empty-messages.js';
import type { CommandIO } from './cli-io.js';
import type { TestRunOptions } from './test-run-command.js';

/**
 * The test_run request `agentcheck test-run`'s flags and files describe, with the build it runs
 * (after --delta). Every file and flag is checked, each on its own, and all their problems are
 * thrown together (ConfigErrors), as `validate` lists them (docs/cli.md); what needs the build
 * waits for the build and its delta.
 */
export function requestFromFlags(
  options: TestRunOptions,
  io: Pick<CommandIO, 'cwd' | 'env'>,
): { request: TestRunRequest; applied: DeltaRevision; onToolsListed?: ListedNamesCheck } {
  let applied: DeltaRevision | undefined;
  const problems: ConfigError[] = [];
  const step = (check: () => void): boolean => collectConfigErrors(problems, check);
  // Given or not is what counts: `--message ""` was given (and is refused as empty below).
  if ((options.message === undefined) === (options.inputs === undefined)) {
    problems.push(new ConfigError({ file: 'test-run' }, 'give exactly one of --message TEXT or --inputs FILE'));
  } else if (options.message !== undefined && options.message.trim() === '') {
    problems.push(new ConfigError({ file: 'test-run' }, emptyMessageText('--message')));
  }
  const terminalValid = options.terminalTool === undefined || step(() => validateToolName(options.terminalTool, [], memoryLocator('--terminal-tool')));
  let revision: Revision | undefined;
  step(() => {
    revision = loadAgentFile(resolve(io.cwd, options.agent));
    applied = applyDelta(revision, {}, '<no delta>');
  });
  if (revision && options.delta !== undefined) {
    const base = revision;
    const deltaApplied = step(() => {
      const deltaDoc = SourceDocument.read(resolve(io.cwd, options.delta as string));
      refuseAgentBuild(deltaDoc, FILE_KINDS.delta);
      // An empty file parses as null: a delta that says nothing is a mistake, not a no-op.
      assertMappingFile(deltaDoc, FILE_KINDS.delta, 'DELTA_INVALID');
      applied = applyDelta(base, deltaDoc.value, deltaDoc);
    });
    // The names below are held to the build that runs: not to one the delta failed to make.
    if (!deltaApplied) applied = undefined;
  }
  let inputs: ScenarioInputsSpec = { messages: [{ role: 'user', content: options.message ?? '' }] };
  if (options.inputs) {
    step(() => {
      const doc = readDocument(io.cwd, options.inputs as string, FILE_KINDS.inputs);
      assertFormat<ScenarioInputsSpec>(scenarioProperties.inputs, doc.value, documentLocator(doc));
      throwConfigErrors(emptyMessageProblems(doc.value.messages, documentLocator(doc, ['messages'])));
      inputs = doc.value;
    });
  }
  let script: ScriptEntry[] | undefined;
  let scriptDoc: SourceDocument | undefined;
  if (options.script !== undefined) {
    step(() => {
      const doc = SourceDocument.read(resolve(io.cwd, options.script as string));
      assertListFile(doc, FILE_KINDS.script);
      scriptDoc = doc;
      // Each entry on its own, as a scenario's: one with a format problem (reported) is left out
      // of the rules and the names below as an empty entry, and hides no other entry's problem nor a flag's.
      const checked = checkScript(doc.value, documentLocator(doc));
      script = checked.entries;
      throwConfigErrors(checked.problems);
    });
  } else if (applied && isScripted(applied.build) && !applied.build.flow && !applied.build.external) {
    // Without a script the scripted model has nothing to say: an agent's loop starts with a model
    // call, so the run could only fail. An external agent may never call the model
    // (docs/external-agents.md): it runs, and a model call it makes fails as SCRIPT_MISSING.
    const build = applied.build;
    const llmPath = 'agent.llm';
    // When the delta made the model scripted, the delta file is the place to fix.
    const byDelta = options.delta !== undefined && revision !== undefined && !isScripted(revision.build);
    const why = byDelta ? `the delta makes ${llmPath} provider scripted` : buildAgent(build).llm ? `${llmPath} has provider scripted` : 'the agent has no llm';
    problems.push(
      new ConfigError(
        byDelta ? { file: resolve(io.cwd, options.delta as string) } : { file: applied.source, path: llmPath },
        // SCRIPT_MISSING's words, as every caller gets them, and the CLI's other way out.
        `${SCRIPT_MISSING_MESSAGE}; or give a real provider in ${llmPath} (${why})`,
      ),
    );
  }
  // A name the --delta took away is said to be gone because of it (the --agent file still has it).
  const namesAt = (locate: Locator) => removedByDelta(options.delta === undefined ? undefined : revision?.build, applied?.build, locate, 'the --delta');
  // The names a scenario would be held to, held to the build that runs (after the delta), and
  // to the tools its MCP servers list once they run, for a server without a `tools` list.
  let onToolsListed: ListedNamesCheck | undefined;
  if (applied && (options.script === undefined || script)) {
    const names: ScenarioNames = {
      terminalTool: terminalValid ? options.terminalTool : undefined,
      terminalToolLabel: 'it',
      references: [],
      script,
      unknownToolsHint: TEST_RUN_UNKNOWN_TOOLS_HINT,
      humanInputHint: TEST_RUN_HUMAN_INPUT_HINT,
      // A single run delivers skills inline (docs/skills.md): load_skill is not offered.
      noLoadSkill: TEST_RUN_NO_LOAD_SKILL,
    };
    const locate = namesAt(flagLocator(scriptDoc));
    problems.push(...checkScenarioNames(names, [applied.build], locate));
    onToolsListed = listedNamesCheck(names, [applied.build], locate);
  }
  let mocks: MocksSpec | undefined;
  if (options.mocks !== undefined) {
    step(() => {
      const doc = readDocument(io.cwd, options.mocks as string, FILE_KINDS.mocks);
      const format = checkFormat<MocksSpec>(scenarioProperties.mocks, doc.value, documentLocator(doc));
      // The rules a schema cannot say, held as a scenario's `mocks` is (docs/formats.md, Mocks), on
      // every mock the format leaves intact: all the file's problems in one pass.
      const found = [...format.errors];
      const http = format.typed(['http']) ? format.value.http : undefined;
      if (http) collectConfigErrors(found, () => validateHttpMocks(http, documentLocator(doc, ['http']), (path) => format.valid(['http', ...path])));
      throwConfigErrors(found);
      mocks = format.value;
    });
  }
  let approvals: ApprovalsSpec | undefined;
  if (options.approvals !== undefined) {
    step(() => {
      const doc = readDocument(io.cwd, options.approvals as string, FILE_KINDS.approvals);
      // A misspelt tool would otherwise leave the real one to `default` (or to a pause): each
      // answer is held to the build beside the file's format problems, all in one pass.
      throwConfigErrors(approvalsProblems(doc.value, applied?.build, namesAt(documentLocator(doc))));
      approvals = doc.value as ApprovalsSpec;
    });
  }
  let workspace: string | undefined;
  if (options.workspace !== undefined) {
    workspace = resolve(io.cwd, options.workspace);
    const problem = workspaceFolderProblem(workspace, runsDir(io.cwd, options.spans));
    if (problem) problems.push(new ConfigError({ file: '--workspace' }, problem));
  }
  throwConfigErrors(problems);
  if (!applied) throw new Error('unreachable: a build without problems was loaded');
  const request = {
    agent: applied,
    inputs,
    script,
    mocks,
    approvals,
    workspace,
    expectations: { terminal_tool: options.terminalTool, error_tokens: options.errorToken },
    env: io.env,
    timeout_ms: options.timeout ?? DEFAULT_TEST_RUN_TIMEOUT_MS,
  } satisfies TestRunRequest;
  return { request, applied, onToolsListed };
}

/** A YAML/JSON mapping file the user named; an empty one (it says nothing) or a list is refused naming the kind. */
function readDocument(cwd: string, file: string, what: string): SourceDocument {
  const doc = SourceDocument.read(resolve(cwd, file));
  assertMappingFile(doc, what);
  refuseAgentBuild(doc, what);
  return doc;
}

/** An agent build given to another file flag (`--delta agent.yaml`) is named as one, once, not as its unknown keys. */
function refuseAgentBuild(doc: SourceDocument, what: string): void {
  if (isAgentBuildShape(doc.value)) throw doc.error([], `is an agent build (id and agent at the top), not ${what}: give it with --agent FILE`);
}

/**
 * Places checkScenarioNames' scenario paths in test-run's inputs: `expect.terminal_tool` is the
 * --terminal-tool flag, `model.script.N...` the line of the --script file.
 */
function flagLocator(scriptDoc: SourceDocument | undefined): Locator {
  return (path, expected, atKey) => {
    if (path[0] === 'model' && path[1] === 'script' && scriptDoc) return documentLocator(scriptDoc)(path.slice(2), expected, atKey);
    return memoryLocator('--terminal-tool')([], expected, atKey);
  };
}

/** Whether the build's model is the scripted one (provider scripted, or no llm at all). */
function isScripted(build: AgentBuild): boolean {
  const llm = buildAgent(build).llm;
  return llm === undefined || llm.provider === 'scripted';
}
