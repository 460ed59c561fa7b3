import { resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { validateFiles } from '../validate/validate-files.js';
import { toProblems, type ValidationProblem } from '../validate/validation-report.js';
import { withSentArguments } from './sent-arguments.js';
import type { McpServerContext } from './server-context.js';
import { errorResult, serverRedactor, structuredResult } from './tool-results.js';

const validateInput = z
  .object({
    paths: z
      .array(z.string().min(1))
      .min(1)
      .describe(
        "files or folders to check, relative to the server's folder; folders are searched for agent builds, *.scenario(s).yaml, SKILL.md and agentcheck.config.yaml",
      ),
    config: z.string().min(1).optional().describe('a suite config (agentcheck.config.yaml) whose variants scenarios are checked with'),
  })
  .strict();

const problem = z.object({
  file: z.string(),
  line: z.number().optional(),
  column: z.number().optional(),
  path: z.string().optional().describe('JSON path inside the file, e.g. agent.tools[2].http.url'),
  message: z.string().describe('file:line:col at path: what was expected'),
});

const validateOutput = z.object({
  ok: z.boolean().describe('true when every file is valid'),
  summary: z.string().describe('how many files of each kind were valid'),
  problems: z.array(problem).describe('every problem of every invalid file, each with its location'),
});

const DESCRIPTION = [
  'Check agent builds, scenario files, skills and suite configs without running anything (the checks of `agentcheck validate`).',
  'Returns {ok, summary, problems: [{file, line, column, path, message}]}; each message says where the problem is and what was expected.',
  'Run it after editing a build or a scenario, before test_run.',
].join(' ');

/** Registers `validate`: the checks of `agentcheck validate`, as data. */
export function registerValidateTool(server: McpServer, context: McpServerContext): void {
  server.registerTool(
    'validate',
    {
      title: 'Validate agentcheck files',
      description: DESCRIPTION,
      inputSchema: validateInput,
      outputSchema: validateOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    withSentArguments<z.infer<typeof validateInput>>(context.sent, 'validate', validateInput, (args) => runValidate(args, context)),
  );
}

/** The handler: a missing path or a broken config is a problem of the result, like any invalid file. */
export async function runValidate(args: z.infer<typeof validateInput>, context: McpServerContext): Promise<CallToolResult> {
  try {
    let problems: ValidationProblem[];
    let summary = 'nothing checked';
    try {
      const report = await validateFiles(args.paths, { config: args.config }, context.cwd);
      const { counts, scenarios } = report;
      problems = report.problems;
      summary = `${counts.agent} agent build(s), ${counts.scenario} scenario file(s) with ${scenarios} scenario(s), ${counts.skill} skill(s), ${counts.config} config(s) valid`;
    } catch (error) {
      problems = toProblems(error, args.config ? resolve(context.cwd, args.config) : args.paths.join(', '));
    }
    // A problem may quote a value or a file name that holds one of the server's keys.
    const result = { ok: problems.length === 0, summary, problems: problems.map(({ error: _error, ...rest }) => withoutUndefined(rest)) };
    return structuredResult(serverRedactor().value(result));
  } catch (error) {
    return errorResult(error);
  }
}

/** Structured content is JSON: absent fields are left out rather than set to undefined. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
