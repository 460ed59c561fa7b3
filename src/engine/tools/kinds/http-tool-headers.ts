import { RunError, ToolError } from '../../../config/errors.js';
import { ownValue, setOwn } from '../../../config/own-key.js';
import { secretEnvValues } from '../../../config/redact.js';
import type { ToolSpec } from '../../revision/types.js';
import { definedEnv, envVariablesIn, unsetEnvProblem } from '../../template/env-values.js';
import { unsendableHeaderValue } from '../../template/filled-header.js';
import { stringifyValue } from '../../template/interpolate.js';
import { headerFromArgs } from './args-template.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * An http tool's headers as sent (docs/formats.md, Tools): `{{ args.x }}` from the call and
 * `{{ env.NAME }}` from the run's environment. An unset variable is the ToolError
 * TEMPLATE_UNDEFINED naming the tool, the header and the variable (never an empty header); a
 * filled value fetch would refuse is INVALID_HEADER, naming its sources, never the value.
 */
export function toolHeaders(tool: string, headers: Readonly<Record<string, string>>, args: Record<string, unknown>, env: Env): Record<string, string> {
  // Most tools send no header: the environment is not walked for them.
  if (!Object.keys(headers).length) return {};
  const defined = definedEnv(env);
  const filled: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    const field = `http.headers.${key}`;
    const unset = unsetEnvProblem(value, defined);
    if (unset) throw new ToolError(tool, `tool ${tool}: ${field} ${unset}`, 'TEMPLATE_UNDEFINED');
    setOwn(filled, key, stringifyValue(headerFromArgs(tool, value, args, defined, field)));
    // An argument or a variable with a line break would make fetch throw, quoting the whole value.
    const unsendable = unsendableHeaderValue(value, filled[key]);
    if (unsendable) throw new ToolError(tool, `tool ${tool}: ${field} ${unsendable}`, 'INVALID_HEADER');
  }
  return filled;
}

/**
 * Refuses, before the model's first call, a run whose http tools read a variable that is not set:
 * RunError TEMPLATE_UNDEFINED naming the tool, the header and the variable, as an MCP server's
 * header ends the run at its start (docs/mcp.md), rather than a tool error the model cannot fix.
 */
export function checkToolHeaderVariables(tools: readonly ToolSpec[], env: Env): void {
  if (!tools.some((tool) => Object.keys(tool.http?.headers ?? {}).length)) return;
  const defined = definedEnv(env);
  for (const tool of tools) {
    for (const [key, value] of Object.entries(tool.http?.headers ?? {})) {
      const unset = unsetEnvProblem(value, defined);
      if (unset) throw new RunError('TEMPLATE_UNDEFINED', `tool ${tool.name}: http.headers.${key} ${unset}`);
    }
  }
}

/**
 * The values of the secret variables (docs/security.md, "Secret names") `headers` read as
 * `{{ env.NAME }}`, whatever header they fill: cut out of what the tool returns and records.
 */
export function secretHeaderVariables(headers: Readonly<Record<string, string>>, env: Env): string[] {
  const variables = Object.values(headers).flatMap(envVariablesIn);
  // Own values only: `{{ env.constructor }}` reads no variable.
  return secretEnvValues(Object.fromEntries(variables.map((name) => [name, ownValue(env, name)])));
}
