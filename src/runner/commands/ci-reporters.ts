import { randomBytes } from 'node:crypto';
import type { Report } from '../report/report.js';
import { inGithubActions } from '../ci/in-github-actions.js';
import type { CommandIO } from './cli-io.js';

/**
 * Runs the reporters the CI environment asks for by itself (GitHub Actions annotations and job
 * summary when GITHUB_ACTIONS=true). `files`: the report files the command writes. Returns false
 * when one failed; the failure is printed once.
 */
export async function runCiReporters(report: Readonly<Report>, out: string, io: CommandIO, files?: readonly string[]): Promise<boolean> {
  if (!inGithubActions(io.env)) return true;
  // Loaded only on GitHub Actions: it brings the Markdown reporter with it.
  const { GithubActionsReporter } = await import('../reporters/github-actions-reporter.js');
  const reporter = new GithubActionsReporter(io.env);
  try {
    await reporter.onRunEnd(report, { out, stdout: io.stdout, color: false, cwd: io.cwd, files });
    return true;
  } catch (error) {
    io.stderr.write(`agentcheck: the ${reporter.name} reporter failed: ${(error as Error).message}\n`);
    return false;
  }
}

/**
 * On GitHub Actions, stops the runner from reading workflow commands in what follows (GitHub's
 * `::stop-commands::<token>`, for logging untrusted text); `resume()` prints `::<token>::`. The
 * token is random, so quoted text cannot resume them itself. Undefined off GitHub Actions.
 */
export function stopWorkflowCommands(io: CommandIO): { resume(): void } | undefined {
  if (!inGithubActions(io.env)) return undefined;
  const token = `agentcheck-${randomBytes(12).toString('hex')}`;
  io.stdout.write(`::stop-commands::${token}\n`);
  return { resume: () => io.stdout.write(`::${token}::\n`) };
}
