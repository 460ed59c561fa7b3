import { isSecretName, secretEnvValues, secretHeaderValues, secretUrlValues } from '../../config/redact.js';
import { Redactor } from '../../config/redactor.js';
import type { AgentSpec } from '../../engine/revision/types.js';

/**
 * The redactor of a run: every key it was given, from the environment (secret variables) and
 * from the agent builds it runs (secret-named `llm.parameters`, the password and key-like query
 * values of `llm.base_url` and of `http` tool URLs, secret `http` tool headers, secret headers
 * of MCP servers over HTTP).
 */
export function runRedactor(env: Readonly<Record<string, string | undefined>>, agents: Iterable<AgentSpec>): Redactor {
  const redactor = new Redactor().add(secretEnvValues(env));
  const seen = new Set<AgentSpec>();
  for (const agent of agents) {
    if (seen.has(agent)) continue;
    seen.add(agent);
    redactor.add(agentSecrets(agent));
    redactor.add(mcpHeaderSecrets(agent, env));
  }
  return redactor;
}

/**
 * The secret header values of the agent's Streamable HTTP MCP servers as they will be sent:
 * `{{ env.NAME }}` filled from `env`, so a token is scrubbed whatever its variable is called.
 */
function mcpHeaderSecrets(agent: AgentSpec, env: Readonly<Record<string, string | undefined>>): string[] {
  return (agent.mcps ?? []).flatMap((server) => {
    if (server.url === undefined) return [];
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(server.headers ?? {})) {
      headers[name] = value.replace(ENV_TEMPLATE, (_whole, variable: string) => env[variable] ?? '');
    }
    return [...secretUrlValues(server.url), ...secretHeaderValues(headers)];
  });
}

const ENV_TEMPLATE = /\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The secret values written in one agent build. */
export function agentSecrets(agent: AgentSpec): string[] {
  const values = [...secretParameterValues(agent.llm?.parameters ?? {})];
  if (agent.llm?.base_url) values.push(...secretUrlValues(agent.llm.base_url));
  for (const tool of agent.tools ?? []) {
    if (!tool.http) continue;
    values.push(...secretUrlValues(tool.http.url), ...secretHeaderValues(tool.http.headers ?? {}));
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
