/** Whether the process runs as a GitHub Actions step (its own file: the run command asks before loading any reporter). */
export function inGithubActions(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.GITHUB_ACTIONS === 'true';
}
