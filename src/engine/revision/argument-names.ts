import type { Locator } from '../../config/assert-format.js';
import { quoteCapped, shownNames } from '../../config/cap-text.js';
import { didYouMean } from '../../config/did-you-mean.js';
import type { ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import { BUILTIN_PARAMETERS } from '../tools/builtins/builtin-parameters.js';
import type { ToolSpec } from './types.js';

/**
 * A tool's argument names when its parameters allow no others, else null (no `properties`, or
 * `additionalProperties` / `patternProperties` letting other names in): the `properties`, plus
 * any name listed in `required` only, which JSON Schema allows and a call may then give. The one
 * list every argument-name check uses: flow step inputs, plan arguments, chain inputs, http and
 * command `{{ args.x }}` templates, and scenario checks' `args`.
 */
export function closedArgumentNames(schema: unknown): string[] | null {
  if (!schema || typeof schema !== 'object') return null;
  const { properties, additionalProperties, patternProperties } = schema as Record<string, unknown>;
  if (!properties || typeof properties !== 'object' || Array.isArray(properties) || patternProperties !== undefined) return null;
  if (additionalProperties === true || (additionalProperties !== null && typeof additionalProperties === 'object')) return null;
  return listedArgumentNames(schema);
}

/** The argument names a parameters schema lists (`properties`, then names only `required` lists), open or not. */
export function listedArgumentNames(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const { properties, required } = schema as Record<string, unknown>;
  const names = properties && typeof properties === 'object' && !Array.isArray(properties) ? Object.keys(properties) : [];
  if (Array.isArray(required)) for (const name of required) if (typeof name === 'string' && !names.includes(name)) names.push(name);
  return names;
}

/** The parameters of the tool a chain, plan or flow step calls by name, when it can be held to them. */
export type ParametersOf = (tool: string) => unknown;

/** An agent tool's parameters (a built-in it wraps gives its own), else a built-in's by its name; undefined for others. */
export function toolParametersOf(agentTools: ReadonlyMap<string, ToolSpec>, tool: string): unknown {
  const spec = agentTools.get(tool);
  const builtin = spec ? spec.builtin : (tool as keyof typeof BUILTIN_PARAMETERS);
  return spec?.parameters ?? (builtin ? BUILTIN_PARAMETERS[builtin] : undefined);
}

/**
 * The argument names a chain step's `inputs` or a plan call's `arguments` give that the tool's
 * parameters do not take (closed `properties`), each at its key: the call would fail at run time
 * with invalid arguments (docs/workflows.md, load-time rules).
 */
function unknownArgumentNames(args: unknown, tool: string, parameters: unknown, at: PathSegments, locate: Locator): ConfigError[] {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return [];
  const names = closedArgumentNames(parameters);
  if (!names) return [];
  return Object.keys(args)
    .filter((key) => !names.includes(key))
    .map((key) =>
      locate(
        [...at, key],
        `tool ${quoteCapped(tool)} has no argument ${quoteCapped(key)}; its arguments are: ${shownNames(names) || 'none'}${didYouMean(key, names)}`,
        true,
      ),
    );
}

/**
 * The required arguments a chain step's `inputs` or a plan call's `arguments` leave out (one
 * with a schema `default` is filled in): the call would fail on every run with invalid arguments,
 * as a flow step's would, which is a load error too (docs/workflows.md, load-time rules).
 */
function missingArgumentNames(args: unknown, tool: string, parameters: unknown, at: PathSegments, field: string, locate: Locator): ConfigError[] {
  if (!parameters || typeof parameters !== 'object') return [];
  const schema = parameters as { required?: unknown; properties?: Record<string, { default?: unknown } | undefined> };
  if (!Array.isArray(schema.required)) return [];
  const given = args && typeof args === 'object' && !Array.isArray(args) ? Object.keys(args) : [];
  const missing = schema.required.filter(
    (name): name is string => typeof name === 'string' && !given.includes(name) && schema.properties?.[name]?.default === undefined,
  );
  if (!missing.length) return [];
  return [
    locate(
      at,
      `tool ${quoteCapped(tool)} requires ${missing.map((name) => quoteCapped(name)).join(', ')}; give ${missing.length > 1 ? 'each' : 'it'} in ${field} (a template value counts)`,
    ),
  ];
}

/**
 * The argument-name problems of a chain step's `inputs` or a plan call's `arguments`: unknown
 * names, else missing required ones (a misspelt name is usually the missing one: said once, as
 * unknown).
 */
export function argumentNameProblems(args: unknown, tool: string, parameters: unknown, at: PathSegments, field: string, locate: Locator): ConfigError[] {
  const unknown = unknownArgumentNames(args, tool, parameters, at, locate);
  return unknown.length ? unknown : missingArgumentNames(args, tool, parameters, at, field, locate);
}
