import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { shellWord } from './shell-word.js';
import { dirname, resolve } from 'node:path';
import { realPathOf } from '../files/walk-files.js';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { createFolders } from '../../config/create-folders.js';
import { ConfigError, RunError } from '../../config/errors.js';
import type { Checkpoint } from '../../engine/checkpoint/checkpointer.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import { isUncopyableFileError } from '../../engine/workspace/folder-workspace.js';
import { COPYABLE_FOLDER } from '../../engine/workspace/uncopyable-files.js';
import { checkRunsDir, keepWorkspace, moveWorkspace, runsDir, workspaceDirFor, writeRunCheckpoint } from '../resume/run-checkpoint-file.js';
import { executeTestRun, type TestRunControl, type TestRunRecord, type TestRunRequest, type TestRunResult } from '../test-run.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';
import { requestFromFlags } from './test-run-flags.js';
import { writeTestRunSpans } from './test-run-spans-file.js';
import { refuseSpansOverBuildReads, refuseSpansOverInputs } from './spans-not-an-input.js';
import { printable } from '../reporters/format/printable.js';
import { refuseInsideRun } from '../recursion-guard.js';

export interface TestRunOptions {
  agent: string;
  message?: string;
  inputs?: string;
  delta?: string;
  terminalTool?: string;
  errorToken?: string[];
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
  let loaded: ReturnType<typeof requestFromFlags>;
  try {
    // Inside another run nothing runs: said before any file is read (docs/cli.md, test-run).
    refuseInsideRun();
    checkSpansNotAnInput(options, io.cwd);
    checkWorkspaceNotRunsFolder(options, io.cwd);
    loaded = requestFromFlags(options, io);
    checkSpansNotAnInput(options, io.cwd, loaded.applied);
  } catch (error) {
    return reportRefusal(error, io);
  }
  return runAndReport(loaded.request, loaded.applied, options, io, { onToolsListed: loaded.onToolsListed });
}

/** Runs (or resumes), writes the spans and, on a pause, the checkpoint file; prints the result. */
export async function runAndReport(
  request: TestRunRequest,
  revision: DeltaRevision,
  options: { spans?: string; json?: boolean; append?: boolean },
  io: CommandIO,
  control: TestRunControl = {},
  keptPaused?: (record: TestRunRecord) => Promise<string | undefined>,
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
    // The cap comes from --timeout (or its default): the timeout message names the flag.
    // The runs folder is never copied into the workspace: checkpoints stay out of the agent's sight.
    const record = await executeTestRun({ ...request, signal: request.signal ?? interrupted.signal }, revision, {
      timeoutSetting: '--timeout',
      workspaceLeaveOut: runsDir(io.cwd, options.spans),
      ...control,
    });
    try {
      // A resume that ran nothing leaves its run paused: the checkpoint file that still answers it.
      checkpointFile = await keptPaused?.(record);
      result = record.result;
      // The run happened: a write that fails now (a full disk) is said, the result still
      // printed, and the command fails (exit 1, docs/cli.md). Each write is tried on its own, so
      // a spans file that could not be written never leaves a run_id without its checkpoint.
      const failures: string[] = [];
      if (options.spans !== undefined) {
        try {
          writeTestRunSpans(resolve(io.cwd, options.spans), record.spans, options.append === true, options.spans);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
      if (record.checkpoint && result.run_id) {
        try {
          checkpointFile = await savePausedRun(record, request, runsDir(io.cwd, options.spans), control);
        } catch (error) {
          // Nothing backs the run_id: it is not offered, and the message says the pause is lost.
          delete result.run_id;
          failures.push(`the run paused, but its checkpoint could not be kept, so it cannot be resumed: ${(error as Error).message}`);
        }
      }
      for (const failure of failures) io.stderr.write(`agentcheck: ${failure}\n`);
      outputFailed = failures.length > 0;
    } finally {
      // A resumed run's workspace belongs to its checkpoint folder: kept.
      if (!control.workspace) await record.workspace.dispose();
    }
  } catch (error) {
    // A named pipe, socket or device in --workspace: nothing ran and the file is the input's (exit 2).
    if (!control.workspace && isUncopyableFileError(error)) {
      return reportError(new ConfigError({ file: '--workspace' }, `${error.message}; ${COPYABLE_FOLDER}`), io);
    }
    return reportRefusal(error, io);
  } finally {
    process.removeListener('SIGINT', interrupt);
    process.removeListener('SIGTERM', interrupt);
  }
  io.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatResult(result, checkpointFile, options.spans));
  return result.verdict === 'pass' && !outputFailed ? EXIT.ok : EXIT.failed;
}

/**
 * reportError for test-run and resume, where a RECURSION_GUARD refusal (inside another run) ran
 * nothing: exit 2 with stdout empty, as for invalid input (docs/cli.md, test-run).
 */
export function reportRefusal(error: unknown, io: CommandIO): number {
  const code = reportError(error, io);
  return error instanceof RunError && error.code === 'RECURSION_GUARD' ? EXIT.invalidInput : code;
}

/** Keeps a paused run's workspace and writes `<run_id>.checkpoint.json` for `agentcheck resume`. */
async function savePausedRun(record: TestRunRecord, request: TestRunRequest, dir: string, control: TestRunControl): Promise<string> {
  const runId = record.result.run_id as string;
  checkRunsDir(dir);
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
    spans: record.runSpans,
  };
  if (Object.keys(record.mockServed).length) saved.mock_served = record.mockServed;
  if (request.script) saved.script = [...request.script];
  if (request.mocks) saved.mocks = request.mocks;
  if (request.approvals) saved.approvals = request.approvals;
  if (request.expectations) saved.expectations = { ...request.expectations };
  return writeRunCheckpoint(dir, saved, request.env ?? process.env);
}

/**
 * Refuses a --spans path that is one of the run's own input files or inside --workspace: the
 * spans would overwrite the build, delta or workspace file under test (docs/cli.md, test-run).
 * Given the build that runs (after --delta), also a file it reads: an external agent's or MCP
 * server's command file, or a file in one of its skill folders.
 */
function checkSpansNotAnInput(options: TestRunOptions, cwd: string, applied?: DeltaRevision): void {
  if (options.spans === undefined) return;
  if (applied) {
    refuseSpansOverBuildReads(options.spans, cwd, applied);
    return;
  }
  const flags = {
    '--agent': options.agent,
    '--inputs': options.inputs,
    '--delta': options.delta,
    '--script': options.script,
    '--mocks': options.mocks,
    '--approvals': options.approvals,
  };
  refuseSpansOverInputs(options.spans, cwd, Object.fromEntries(Object.entries(flags).map(([flag, given]) => [`the ${flag} file`, given])));
  if (options.workspace !== undefined && isInsideFolder(realPathOf(resolve(cwd, options.workspace)), realPathOf(resolve(cwd, options.spans)))) {
    throw new ConfigError(
      { file: options.spans },
      '--spans is inside the --workspace folder, which a test-run never changes: give a file outside it',
      'OUT_NOT_WRITABLE',
    );
  }
}

/**
 * Refuses reports/runs itself as --workspace (without --spans): test-run keeps paused runs there,
 * so the folder it never changes would change. (The --spans file's folder is refused as --spans
 * inside the workspace, said first.)
 */
function checkWorkspaceNotRunsFolder(options: TestRunOptions, cwd: string): void {
  if (options.workspace === undefined) return;
  const runs = runsDir(cwd, options.spans);
  if (realPathOf(runs) !== realPathOf(resolve(cwd, options.workspace))) return;
  throw new ConfigError(
    { file: '--workspace' },
    `${options.workspace} is agentcheck's runs folder, where a paused run's checkpoint and workspace are kept (reports/runs without --spans): give another folder`,
    'CONFIG_INVALID',
  );
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

/** The readable summary printed without --json; `spans` is the --spans given (resume must be given it too, to find the checkpoint). */
function formatResult(result: TestRunResult, checkpointFile?: string, spans?: string): string {
  // Untrusted text (the model's output, reasons quoting tool results) as every readable output shows it (docs/report-format.md).
  return printable(readableResult(result, checkpointFile, spans));
}

function readableResult(result: TestRunResult, checkpointFile?: string, spans?: string): string {
  const tools = result.tools.length
    ? result.tools.map((t) => `  ${t.name}: called ${t.called}, returned ${t.returned}, errors ${t.errors}`).join('\n')
    : '  (no tool calls)';
  const approvals = result.approvals.map((a) => `  ${a.tool}: ${a.decision}`).join('\n');
  return (
    [
      `verdict: ${result.verdict.toUpperCase()} - ${indented(result.verdict_reason)}`,
      `stop reason: ${result.stop_reason}`,
      `tools:\n${tools}`,
      approvals ? `approvals:\n${approvals}` : '',
      `output: ${indented(result.output) || '(empty)'}`,
      result.resolved
        ? `resolved: provider ${result.resolved.provider}, model ${result.resolved.model}, max_turns ${result.resolved.max_turns}, skills [${result.resolved.skills.join(', ')}]`
        : 'resolved: (none: the run ended before it started its agent)',
      `trace: ${result.trace_id}`,
      result.run_id ? pausedLine(result.run_id, result.stop_reason, checkpointFile, spans) : '',
    ]
      .filter(Boolean)
      .join('\n') + '\n'
  );
}

/** Untrusted text over several lines, each line after the first indented: a model's `verdict: PASS` line cannot pass for the result's own. */
function indented(text: string): string {
  return text.replace(/\r?\n/g, (lineBreak) => `${lineBreak}  `);
}

/** The run_id to answer and the resume command that answers it, as it runs when pasted. */
function pausedLine(runId: string, stopReason: TestRunResult['stop_reason'], checkpointFile?: string, spans?: string): string {
  const command = `agentcheck resume ${runId}${spans === undefined ? '' : ` --spans ${shellWord(spans)}`} --decision approve|deny`;
  // A resume that ran nothing keeps the run paused at the same gate (docs/cli.md, resume).
  if (stopReason !== 'paused')
    return `still paused: run ${runId} (${checkpointFile}): nothing ran, so the call waits at its gate; answer it again with ${command} once the cause is fixed`;
  return `paused: run ${runId} (${checkpointFile}); continue with ${command}`;
}
