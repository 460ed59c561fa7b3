import { runRedactor } from './run-secrets.js';

/**
 * A scenario id as a report of a run in this environment shows it: the values of secret-named
 * variables (and credential-shaped text) as [redacted]. `--only-failed` finds a scenario whose
 * name holds a secret's value under that id (docs/cli.md).
 */
export function reportShownId(env: Readonly<Record<string, string | undefined>>): (id: string) => string {
  const redactor = runRedactor(env, []);
  return (id) => redactor.text(id);
}
