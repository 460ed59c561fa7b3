/**
 * Whether the process runs as a GitHub Actions step and should annotate it (its own file: the run
 * command asks before loading any reporter). `AGENTCHECK_GITHUB=off` (or false, 0, no) turns the annotations and
 * the job summary off, for shard jobs whose `merge` job reports them all (docs/ci.md).
 */
export function inGithubActions(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.GITHUB_ACTIONS === 'true' && !OFF.test(env.AGENTCHECK_GITHUB ?? '');
}

/**
 * On GitHub Actions, the stderr line naming an AGENTCHECK_GITHUB value that is neither off nor on
 * (`nah`): it keeps the annotations on, as an unset one does, but a typo of `off` should not pass
 * unseen (docs/ci.md). Undefined when the value is unset, empty or recognised.
 */
export function githubSwitchWarning(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const value = env.AGENTCHECK_GITHUB;
  if (env.GITHUB_ACTIONS !== 'true' || value === undefined || !value.trim() || OFF.test(value) || ON.test(value)) return undefined;
  return `agentcheck: AGENTCHECK_GITHUB=${JSON.stringify(value)} is not recognised (off, false, 0 or no turn the GitHub annotations and job summary off; on, true, 1 or yes keep them on): keeping them on`;
}

// `off` as a shell, a YAML `env:` block (`false`) or a habit (`0`, `no`) writes it.
const OFF = /^\s*(off|false|0|no)\s*$/i;
const ON = /^\s*(on|true|1|yes)\s*$/i;
