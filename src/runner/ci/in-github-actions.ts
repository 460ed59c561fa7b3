/**
 * Whether the process runs as a GitHub Actions step and should annotate it (its own file: the run
 * command asks before loading any reporter). `AGENTCHECK_GITHUB=off` (or false, 0, no) turns the annotations and
 * the job summary off, for shard jobs whose `merge` job reports them all (docs/ci.md).
 */
export function inGithubActions(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.GITHUB_ACTIONS === 'true' && !OFF.test(env.AGENTCHECK_GITHUB ?? '');
}

// `off` as a shell, a YAML `env:` block (`false`) or a habit (`0`, `no`) writes it.
const OFF = /^\s*(off|false|0|no)\s*$/i;
