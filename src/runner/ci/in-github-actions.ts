/**
 * Whether the process runs as a GitHub Actions step and should annotate it (its own file: the run
 * command asks before loading any reporter). `AGENTCHECK_GITHUB=off` turns the annotations and
 * the job summary off, for shard jobs whose `merge` job reports them all (docs/ci.md).
 */
export function inGithubActions(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.GITHUB_ACTIONS === 'true' && env.AGENTCHECK_GITHUB !== 'off';
}
