import { ConfigError } from '../../config/errors.js';
import { REDACTED, type Redactor } from '../../config/redactor.js';
import type { Scenario } from '../scenario/scenario.js';

/**
 * The problem of scenarios whose ids differ only in a secret's value, or undefined. Reports show
 * every secret as [redacted], so such rows would share one id in report.json and JUnit, and
 * `--only-failed`, `compare` and `merge` would refuse that report as holding a row twice.
 * Refused before anything runs, in words that never hold the secret.
 */
export function redactedIdClash(scenarios: Iterable<Scenario>, redactor: Redactor): ConfigError | undefined {
  const firstOf = new Map<string, Scenario>();
  for (const scenario of scenarios) {
    const shown = redactor.text(scenario.id);
    const first = firstOf.get(shown);
    if (first === undefined) firstOf.set(shown, scenario);
    else if (first.id !== scenario.id) {
      return new ConfigError(
        { file: scenario.file },
        `two scenarios have ids that differ only in the value of a secret (an environment variable with a secret's name, or a key of an agent build), which reports show as ${REDACTED}: both would be ${JSON.stringify(shown)}; expected scenario names that do not hold a secret's value`,
      );
    }
  }
  return undefined;
}
