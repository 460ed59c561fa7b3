import { ConfigError } from '../../config/errors.js';
import { CLI_NAMES } from '../suite/selection-names.js';
import { validateFiles, type ValidateOptions } from '../validate/validate-files.js';
import type { ValidationReport } from '../validate/validation-report.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';

/**
 * `agentcheck validate`: checks agent builds (with their flows, plans, chains and skill refs),
 * scenario files (with the builds they use and their checks), skills and suite configs,
 * without running anything. Every problem is printed; exit 2 if there was any.
 */
export async function validateCommand(paths: string[], options: ValidateOptions, io: CommandIO): Promise<number> {
  let report: ValidationReport;
  try {
    report = await validateFiles(paths, options, io.cwd, CLI_NAMES);
  } catch (error) {
    return reportError(error, io);
  }
  for (const problem of report.problems) {
    if (problem.error instanceof ConfigError) io.stderr.write(`${problem.error.message}\n`);
    else reportError(problem.error, io);
  }
  const { counts, scenarios, problems } = report;
  const summary = `${counts.agent} agent build(s), ${counts.scenario} scenario file(s) with ${scenarios} scenario(s), ${counts.skill} skill(s), ${counts.config} config(s)`;
  if (problems.length) {
    const files = new Set(problems.map((problem) => problem.file)).size;
    io.stderr.write(`agentcheck validate: ${problems.length} problem(s) in ${files} file(s); valid: ${summary}\n`);
    return EXIT.invalidInput;
  }
  io.stdout.write(`agentcheck validate: ok: ${summary}\n`);
  return EXIT.ok;
}
