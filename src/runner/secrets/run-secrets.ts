import { envHeaderSecrets, isSecretName, secretEnvValues, secretUrlValues } from '../../config/redact.js';
import { Redactor } from '../../config/redactor.js';
import { externalSecrets } from '../../engine/external/external-secrets.js';
import { buildAgent } from '../../engine/revision/build-agent.js';
import type { AgentBuild, AgentSpec } from '../../engine/revision/types.js';

/**
 * The redactor of a run: every key it was given, from the environment (secret variables) and
 * from the agent builds it runs (buildSecrets).
 */
export function runRedactor(env: Readonly<Record<string, string | undefined>>, builds: Iterable<AgentBuild>): Redactor {
  const redactor = new Redactor().add(secretEnvValues(env));
  const seen = new Set<AgentBuild>();
  for (const build of builds) {
    if (seen.has(build)) continue;
    seen.add(build);
    redactor.add(buildSecrets(build, env));
  }
  return redactor;
}

/**
 * The secret values of one agent build, as its run sends them (`{{ env.NAME }}` filled from
 * `env`): secret-named `llm.parameters`, the password and key-like query values of
 * `llm.base_url` and of `http` tool URLs, secret `http` tool headers, secret headers and URL
 * credentials of MCP servers over HTTP, and an external agent's secrets (externalSecrets).
 */
export function buildSecrets(build: AgentBuild, env: Readonly<Record<string, string | undefined>>): string[] {
  const agent = buildAgent(build);
  return [...agentSecrets(agent, env), ...mcpHeaderSecrets(agent, env), ...(build.external ? externalSecrets(build.external, env) : [])];
}

/**
 * The secret header values of the agent's Streamable HTTP MCP servers as they will be sent:
 * `{{ env.NAME }}` filled from `env`, so a token is scrubbed whatever its variable is called.
 */
function mcpHeaderSecrets(agent: AgentSpec, env: Readonly<Record<string, string | undefined>>): string[] {
  return (agent.mcps ?? []).flatMap((server) =>
    server.url === undefined ? [] : [...secretUrlValues(server.url), ...envHeaderSecrets(server.headers ?? {}, env)],
  );
}

/**
 * The secret values of one agent build's `agent`: those written in it, and its http tools' secret
 * headers with `{{ env.NAME }}` filled from `env`, whatever the variable is called.
 */
function agentSecrets(agent: AgentSpec, env: Readonly<Record<string, string | undefined>>): string[] {
  const values = [...secretParameterValues(agent.llm?.parameters ?? {})];
  if (agent.llm?.base_url) values.push(...secretUrlValues(agent.llm.base_url));
  for (const tool of agent.tools ?? []) {
    if (!tool.http) continue;
    values.push(...secretUrlValues(tool.http.url), ...envHeaderSecrets(tool.http.headers ?? {}, env));
  }
  return values;
}

function secretParameterValues(value: unknown, secret = false): string[] {
  if (typeof value === 'string') return secret ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => secretParameterValues(item, secret));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => secretParameterValues(item, secret || isSecretName(key)));
  }
  return [];
}
