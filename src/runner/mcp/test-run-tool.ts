import { resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Message } from '../../engine/model/message.js';
import { applyDelta, type DeltaRevision } from '../../engine/revision/delta.js';
import { revisionFromValue } from '../../engine/revision/load-build.js';
import { loadAgentFile } from '../agent-file.js';
import type { AgentBuild, Revision } from '../../engine/revision/types.js';
import { memoryLocator } from '../../config/assert-format.js';
import { checkNesting } from '../../config/nesting-limit.js';
import { validateHttpMocks } from '../mocks/validate-mocks.js';
import { workspaceFolderProblem } from '../files/walk-files.js';
import { validateToolName } from '../../verdicts/tool-name.js';
import { approvalsProblems } from '../../engine/permissions/approvals-problems.js';
import { checkRequestNames } from '../scenario/check-scenario-names.js';
import { MCP_TEST_RUN_NO_LOAD_SKILL } from '../scenario/load-skill-offered.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { checkScript } from '../../engine/providers/script-schema.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../suite/timeouts.js';
import { executeTestRun, requestNamesAtRun, type TestRunRequest } from '../test-run.js';
import { isUncopyableFileError } from '../../engine/workspace/folder-workspace.js';
import { COPYABLE_FOLDER } from '../../engine/workspace/uncopyable-files.js';
import { emptyMessageProblems } from '../empty-messages.js';
import { withSentArguments } from './sent-arguments.js';
import type { McpServerContext } from './server-context.js';
import { settleRun } from './settle-run.js';
import { refuseInsideRun } from '../recursion-guard.js';
import { TEST_RUN_DESCRIPTION, testRunInput, testRunOutput, type TestRunArgs } from './test-run-schema.js';
import { errorResult, insideRunRefusal, structuredResult } from './tool-results.js';

/** Registers `test_run`: one in-memory run, its TestRunResult as structured content and text. */
export function registerTestRunTool(server: McpServer, context: McpServerContext): void {
  server.registerTool(
    'test_run',
    {
      title: 'Run an agent build once and score it',
      description: TEST_RUN_DESCRIPTION,
      inputSchema: testRunInput,
      outputSchema: testRunOutput,
      // Not read-only: the build's http and command tools (or a real model) may act on the world.
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    // The request's signal aborts when the client cancels it or disconnects: the run stops and its commands are killed.
    withSentArguments<TestRunArgs>(
      context.sent,
      'test_run',
      testRunInput,
      (args, extra) => context.calls.track(runTestRun(args, context, extra.signal)),
      insideRunRefusal,
    ),
  );
}

/** The handler: never throws; a bad build, delta or path comes back as a located tool error. */
export async function runTestRun(args: TestRunArgs, context: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  try {
    // Inside another run nothing runs: said first, never after a path the model then fixes in vain.
    refuseInsideRun();
    // Errors in inline values name the argument they came from, e.g. `arguments.delta at set.agent`.
    // Every argument is checked and all the problems come back in one answer, as the CLI lists them.
    const problems: ConfigError[] = [];
    // Arguments nested deeper than a file may be are refused before anything walks them (as testRun's are).
    for (const [key, value] of Object.entries(args)) collectConfigErrors(problems, () => checkNesting(value, memoryLocator('arguments', [key])));
    throwConfigErrors(problems);
    let revision: DeltaRevision | undefined;
    collectConfigErrors(problems, () => {
      revision = applyDelta(loadRevision(args.agent, context.cwd), args.delta ?? {}, 'arguments.delta');
    });
    problems.push(...requestRuleProblems(args, revision?.build));
    // The folder the run is copied from, checked with the rest (a file or a missing path).
    const folderProblem = args.workspace === undefined ? undefined : workspaceFolderProblem(resolve(context.cwd, args.workspace));
    if (folderProblem) problems.push(memoryLocator('arguments')(['workspace'], folderProblem));
    throwConfigErrors(problems);
    if (!revision) throw new Error('unreachable: a build without problems was loaded');
    const request: TestRunRequest = {
      agent: revision,
      inputs: { messages: args.inputs.messages as Message[], context: args.inputs.context },
      expectations: args.expectations,
      approvals: args.approvals,
      mocks: args.mocks,
      script: args.script,
      workspace: args.workspace === undefined ? undefined : resolve(context.cwd, args.workspace),
      env: context.env,
      timeout_ms: args.timeout_ms ?? DEFAULT_TEST_RUN_TIMEOUT_MS,
      signal,
    };
    const record = await executeTestRun(request, revision, {
      onToolsListed: requestNamesAtRun(request, revision.build, memoryLocator('arguments'), MCP_TEST_RUN_NO_LOAD_SKILL),
    });
    return structuredResult(await settleRun(record, request, context));
  } catch (error) {
    // A named pipe, socket or device in the workspace folder: the argument is at fault, as for the CLI's --workspace.
    if (isUncopyableFileError(error)) {
      return errorResult(memoryLocator('arguments')(['workspace'], `${error.message}; ${COPYABLE_FOLDER}`));
    }
    return errorResult(error);
  }
}

/**
 * What the input schema cannot say, held as a scenario's fields are (docs/formats.md): the mocks'
 * own rules (json or body, responses or answer keys, valid matchers), the script's rules and
 * approvals, its format and the tools it answers (approvalsProblems). Errors name the argument: `arguments at mocks.http[0].body: ...`.
 */
function requestRuleProblems(args: TestRunArgs, build: AgentBuild | undefined): ConfigError[] {
  const locate = memoryLocator('arguments');
  const problems: ConfigError[] = emptyMessageProblems(args.inputs.messages, (path, expected) => locate(['inputs', 'messages', ...path], expected));
  const mocks = args.mocks;
  if (mocks) collectConfigErrors(problems, () => validateHttpMocks(mocks.http, (path, expected, atKey) => locate(['mocks', 'http', ...path], expected, atKey)));
  // The script by the CLI's --script rules (the input schema lets it through): its format and, on each
  // entry the format left intact, at least one entry, each answering something, distinct call ids.
  const script = args.script === undefined ? undefined : checkScript(args.script, memoryLocator('arguments', ['script']));
  if (script) problems.push(...script.problems);
  // An unsafe or invalid /regex/ is the argument's problem, located, as testRun and the CLI say it.
  const terminal = args.expectations?.terminal_tool;
  const terminalValid = terminal === undefined || collectConfigErrors(problems, () => validateToolName(terminal, ['expectations', 'terminal_tool'], locate));
  // Its format with its answers held to the build, as the CLI's --approvals (the input schema lets it through).
  if (args.approvals !== undefined) {
    problems.push(...approvalsProblems(args.approvals, build, (path, expected, atKey) => locate(['approvals', ...path], expected, atKey)));
  }
  // What names the build's tools waits for the build (and its delta).
  if (!build) return problems;
  problems.push(
    ...checkRequestNames(
      { terminalTool: terminalValid ? terminal : undefined, script: script?.entries, noLoadSkill: MCP_TEST_RUN_NO_LOAD_SKILL },
      build,
      locate,
    ),
  );
  return problems;
}

function loadRevision(agent: TestRunArgs['agent'], cwd: string): Revision {
  if (typeof agent === 'string') return loadAgentFile(resolve(cwd, agent));
  return revisionFromValue(agent, 'arguments.agent', cwd);
}
