import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { assertFormat, checkFormat, documentLocator, memoryLocator, type Locator } from '../../config/assert-format.js';
import { createFolders } from '../../config/create-folders.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../../config/errors.js';
import { SourceDocument } from '../../config/source.js';
import type { Checkpoint } from '../../engine/checkpoint/checkpointer.js';
import { applyDelta, type DeltaRevision } from '../../engine/revision/delta.js';
import { loadAgentBuild } from '../../engine/revision/load-build.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { spansToJsonl } from '../../spans/jsonl.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { validateToolName } from '../../verdicts/tool-name.js';
import { workspaceFolderProblem } from '../files/walk-files.js';
import { validateHttpMocks } from '../mocks/validate-mocks.js';
import { keepWorkspace, moveWorkspace, runsDir, workspaceDirFor, writeRunCheckpoint } from '../resume/run-checkpoint-file.js';
import { checkScenarioNames, TEST_RUN_UNKNOWN_TOOLS_HINT } from '../scenario/check-scenario-names.js';
import { checkApprovals } from '../scenario/check-approvals.js';
import type { ApprovalsSpec, MocksSpec, ScenarioInputsSpec, ScriptEntrySpec } from '../scenario/scenario-format.generated.js';
import { scenarioProperties, scriptSchema, validateScript } from '../scenario/scenario-schema.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../suite/timeouts.js';
import { decidedApprovals, executeTestRun, type TestRunControl, type TestRunRecord, type TestRunRequest, type TestRunResult } from '../test-run.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';
import { buildAgent } from '../../engine/revision/build-agent.js';

export interface TestRunOptions {
  agent: string;
  message?: string;
  inputs?: string;
  delta?: string;
  terminalTool?: string;
  script?: string;
  mocks?: string;
  approvals?: string;
  workspace?: string;
  spans?: string;
  timeout?: number;
  json?: boolean;
}

/** `agentcheck test-run`: one in-memory run; exit 0 on verdict pass, 1 otherwise, 2 for invalid input. */
export async function testRunCommand(options: TestRunOptions, io: CommandIO): Promise<number> {
  let request: TestRunRequest;
  let applied: DeltaRevision;
  try {
    // Given or not is what counts: `--message ""` was given (and is refused as empty below).
    if ((options.message === undefined) === (options.inputs === undefined)) {
      throw new ConfigError({ file: 'test-run' }, 'give exactly one of --message TEXT or --inputs FILE');
    }
    if (options.message !== undefined && options.message.trim() === '') {
      throw new ConfigError({ file: 'test-run' }, "--message is empty; give the user's message text");
    }
    if (options.terminalTool !== undefined) validateToolName(options.terminalTool, [], memoryLocator('--terminal-tool'));
    const revision = loadAgentBuild(resolve(io.cwd, options.agent));
    applied = applyDelta(revision, {}, '<no delta>');
    if (options.delta !== undefined) {
      const deltaDoc = SourceDocument.read(resolve(io.cwd, options.delta));
      // An empty file parses as null: a delta that says nothing is a mistake, not a no-op.
      if (deltaDoc.value === null) throw deltaDoc.error([], 'expected a delta object {set, remove}; the file is empty', 'DELTA_INVALID');
      applied = applyDelta(revision, deltaDoc.value, deltaDoc);
    }
    let inputs: ScenarioInputsSpec;
    if (options.inputs) {
      const doc = SourceDocument.read(resolve(io.cwd, options.inputs));
      assertFormat<ScenarioInputsSpec>(scenarioProperties.inputs, doc.value, documentLocator(doc));
      inputs = doc.value;
    } else {
      inputs = { messages: [{ role: 'user', content: options.message as string }] };
    }
    let script: ScriptEntrySpec[] | undefined;
    let scriptDoc: SourceDocument | undefined;
    if (options.script !== undefined) {
      scriptDoc = SourceDocument.read(resolve(io.cwd, options.script));
      assertFormat<ScriptEntrySpec[]>(scriptSchema, scriptDoc.value, documentLocator(scriptDoc));
      script = scriptDoc.value;
      validateScript(script, documentLocator(scriptDoc));
    } else if (isScripted(applied.build) && !applied.build.flow) {
      // Without a script the scripted model has nothing to say: the run could only fail.
      // An external build names its model in external.llm (docs/external-agents.md).
      const llmPath = applied.build.external ? 'external.llm' : 'agent.llm';
      const why = buildAgent(applied.build).llm ? `${llmPath} has provider scripted` : `the ${applied.build.external ? 'external agent' : 'agent'} has no llm`;
      throw new ConfigError(
        { file: applied.source, path: llmPath },
        `the agent's model is scripted: give --script FILE with its responses, or a real provider in ${llmPath} (${why})`,
      );
    }
    // The names a scenario would be held to, held to the build that runs (after the delta).
    throwConfigErrors(
      checkScenarioNames(
        {
          terminalTool: options.terminalTool,
          terminalToolLabel: 'it',
          references: [],
          script,
          unknownToolsHint: TEST_RUN_UNKNOWN_TOOLS_HINT,
        },
        [applied.build],
        flagLocator(scriptDoc),
      ),
    );
    let mocks: MocksSpec | undefined;
    if (options.mocks !== undefined) {
      const doc = readDocument(io.cwd, options.mocks, 'a mocks object {http: [...]}');
      const format = checkFormat<MocksSpec>(scenarioProperties.mocks, doc.value, documentLocator(doc));
      // The rules a schema cannot say, held as a scenario's `mocks` is (docs/formats.md, Mocks), on
      // every mock the format leaves intact: all the file's problems in one pass.
      const problems = [...format.errors];
      const http = format.typed(['http']) ? format.value.http : undefined;
      if (http) collectConfigErrors(problems, () => validateHttpMocks(http, documentLocator(doc, ['http']), (index) => format.valid(['http', index])));
      throwConfigErrors(problems);
      mocks = format.value;
    }
    let approvals: ApprovalsSpec | undefined;
    if (options.approvals !== undefined) {
      const file = readFormatFile<ApprovalsSpec>(io.cwd, options.approvals, scenarioProperties.approvals, 'an approvals object {default, tools}');
      approvals = file.value;
      // A misspelt tool would otherwise leave the real one to `default` (or to a pause).
      checkApprovals(approvals, [applied.build], documentLocator(file.doc));
    }
    let workspace: string | undefined;
    if (options.workspace !== undefined) {
      workspace = resolve(io.cwd, options.workspace);
      const problem = workspaceFolderProblem(workspace);
      if (problem) throw new ConfigError({ file: '--workspace' }, problem);
    }
    request = {
      agent: applied,
      inputs,
      script,
      mocks,
      approvals,
      workspace,
      expectations: { terminal_tool: options.terminalTool },
      env: io.env,
      timeout_ms: options.timeout ?? DEFAULT_TEST_RUN_TIMEOUT_MS,
    } satisfies TestRunRequest;
  } catch (error) {
    return reportError(error, io);
  }
  return runAndReport(request, applied, options, io);
}

/** Runs (or resumes), writes the spans and, on a pause, the checkpoint file; prints the result. */
export async function runAndReport(
  request: TestRunRequest,
  revision: DeltaRevision,
  options: { spans?: string; json?: boolean; append?: boolean },
  io: CommandIO,
  control: TestRunControl = {},
): Promise<number> {
  let result: TestRunResult;
  let checkpointFile: string | undefined;
  let outputFailed = false;
  // Ctrl-C or SIGTERM aborts the run like its time limit: its commands are killed, the result so
  // far is printed and the exit code is 1. `on`, not `once`, as in `run` (execa's signal-exit).
  const interrupted = new AbortController();
  const interrupt = () => interrupted.abort(new Error('interrupted'));
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  try {
    // An unusable --spans is invalid input, found before the run rather than after it.
    if (options.spans !== undefined) checkSpansPath(resolve(io.cwd, options.spans), options.spans);
    const record = await executeTestRun({ ...request, signal: request.signal ?? interrupted.signal }, revision, control);
    try {
      result = record.result;
      try {
        if (options.spans !== undefined) await writeSpans(resolve(io.cwd, options.spans), record.spans, options.append === true, options.spans);
        if (record.checkpoint && result.run_id) checkpointFile = await savePausedRun(record, request, runsDir(io.cwd, options.spans), control);
      } catch (error) {
        // The run happened: a write that fails now (a full disk) is said, the result still
        // printed, and the command fails (exit 1, docs/cli.md).
        io.stderr.write(`agentcheck: ${(error as Error).message}\n`);
        outputFailed = true;
      }
    } finally {
      // A resumed run's workspace belongs to its checkpoint folder: kept.
      if (!control.workspace) await record.workspace.dispose();
    }
  } catch (error) {
    return reportError(error, io);
  } finally {
    process.removeListener('SIGINT', interrupt);
    process.removeListener('SIGTERM', interrupt);
  }
  io.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatResult(result, checkpointFile, options.spans));
  return result.verdict === 'pass' && !outputFailed ? EXIT.ok : EXIT.failed;
}

/** Keeps a paused run's workspace and writes `<run_id>.checkpoint.json` for `agentcheck resume`. */
async function savePausedRun(record: TestRunRecord, request: TestRunRequest, dir: string, control: TestRunControl): Promise<string> {
  const runId = record.result.run_id as string;
  const workspaceDir = resolve(workspaceDirFor(dir, runId));
  // A resumed run that pauses again takes its folder along: the folder is named after the run id
  // that resumes it; the answered run's checkpoint is removed, so its name would mislead.
  if (control.workspace) await moveWorkspace(await control.workspace.root(), workspaceDir);
  else await keepWorkspace(await record.workspace.root(), workspaceDir);
  const saved: Parameters<typeof writeRunCheckpoint>[1] = {
    run_id: runId,
    revision: record.revision,
    checkpoint: record.checkpoint as Checkpoint,
    workspace_dir: workspaceDir,
    decisions: decidedApprovals(record.result),
  };
  if (request.script) saved.script = [...request.script];
  if (request.mocks) saved.mocks = request.mocks;
  if (request.approvals) saved.approvals = request.approvals;
  if (request.expectations?.terminal_tool) saved.expectations = { terminal_tool: request.expectations.terminal_tool };
  return writeRunCheckpoint(dir, saved);
}

/** The run's spans as JSONL: a fresh file for test-run, appended to for resume. */
async function writeSpans(file: string, spans: readonly SpanRecord[], append: boolean, given: string): Promise<void> {
  try {
    await (append ? appendFile : writeFile)(file, spansToJsonl(spans), 'utf8');
  } catch (error) {
    throw new Error(`could not write the spans to ${given}: ${(error as Error).message}`);
  }
}

/** Creates the --spans file's folder and refuses a folder as the file, or says why it cannot be written. */
function checkSpansPath(file: string, given: string): void {
  let problem: string | undefined;
  try {
    createFolders(dirname(file));
    if (existsSync(file) && statSync(file).isDirectory()) problem = 'it is a folder';
    // Opened (and created when missing) now: a folder that refuses new files (/sys, read-only)
    // is found before the run, not after it. Appending nothing leaves an existing file as it was.
    else closeSync(openSync(file, 'a'));
  } catch (error) {
    problem = (error as Error).message;
  }
  if (problem)
    throw new ConfigError(
      { file: given },
      `cannot write the spans there: ${problem}; expected a file path agentcheck may create and write`,
      'OUT_NOT_WRITABLE',
    );
}

/** A file checked against a scenario field's schema (errors name file, line and path), with its document for further located checks. */
function readFormatFile<T>(cwd: string, file: string, schema: object, what: string): { doc: SourceDocument; value: T } {
  const doc = readDocument(cwd, file, what);
  assertFormat<T>(schema, doc.value, documentLocator(doc));
  return { doc, value: doc.value };
}

/** A YAML/JSON file the user named; an empty one is refused (it says nothing). */
function readDocument(cwd: string, file: string, what: string): SourceDocument {
  const doc = SourceDocument.read(resolve(cwd, file));
  if (doc.value === null) throw doc.error([], `expected ${what}; the file is empty`);
  return doc;
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

/** The readable summary printed without --json; `spans` is the --spans given (resume must be given it too, to find the checkpoint). */
function formatResult(result: TestRunResult, checkpointFile?: string, spans?: string): string {
  const tools = result.tools.length
    ? result.tools.map((t) => `  ${t.name}: called ${t.called}, returned ${t.returned}, errors ${t.errors}`).join('\n')
    : '  (no tool calls)';
  const approvals = result.approvals.map((a) => `  ${a.tool}: ${a.decision}`).join('\n');
  return (
    [
      `verdict: ${result.verdict.toUpperCase()} - ${result.verdict_reason}`,
      `stop reason: ${result.stop_reason}`,
      `tools:\n${tools}`,
      approvals ? `approvals:\n${approvals}` : '',
      `output: ${result.output || '(empty)'}`,
      result.resolved
        ? `resolved: provider ${result.resolved.provider}, model ${result.resolved.model}, max_turns ${result.resolved.max_turns}, skills [${result.resolved.skills.join(', ')}]`
        : 'resolved: (none: the run ended before it started its agent)',
      `trace: ${result.trace_id}`,
      result.run_id
        ? `paused: run ${result.run_id} (${checkpointFile}); continue with agentcheck resume ${result.run_id}${spans === undefined ? '' : ` --spans ${shellWord(spans)}`} --decision approve|deny`
        : '',
    ]
      .filter(Boolean)
      .join('\n') + '\n'
  );
}

/** `text` as one shell word: as it is when it holds only safe characters, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
