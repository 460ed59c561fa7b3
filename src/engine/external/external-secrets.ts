import { envHeaderSecrets, envVariableSecrets, secretEnvValues, secretUrlValues } from '../../config/redact.js';
import { Redactor } from '../../config/redactor.js';
import type { ExternalSpec } from '../revision/types.js';
import type { EngineRun } from './engine-run.js';

/**
 * The secrets an external build hands its agent (docs/security.md, "Secrets"): the values of
 * secret-named `external.env` variables (`SERVICE_TOKEN`, `DB_PASSWORD`, `*_KEY`) as the agent
 * gets them (`{{ env.NAME }}` filled from `env`), the
 * credentials of `http.url` and `http.spans_url`, and the values of secret-named headers as they
 * are sent (`{{ env.NAME }}` filled from `env`, whatever the variable is called).
 */
export function externalSecrets(external: ExternalSpec, env: Readonly<Record<string, string | undefined>>): string[] {
  const values = envVariableSecrets(external.env ?? {}, env);
  const http = external.http;
  if (http) {
    values.push(...secretUrlValues(http.url), ...envHeaderSecrets(http.headers ?? {}, env));
    if (http.spans_url) values.push(...secretUrlValues(http.spans_url));
  }
  return values;
}

/**
 * What an external engine scrubs from the agent's text it passes on (its answer, the stderr or
 * body an error quotes): the build's secrets and every secret variable of the agent's
 * environment, the bridge's placeholder keys included; the agent may print any of them.
 */
export function engineRedactor(run: EngineRun): Redactor {
  return new Redactor().add(secretEnvValues(run.env)).add(externalSecrets(run.external, run.sourceEnv));
}
