import { AgentcheckError, ToolError } from '../../../config/errors.js';
import { envLookup } from '../../template/env-values.js';
import { interpolate, type InterpolateOptions } from '../../template/interpolate.js';
import type { TemplateLookup } from '../../template/template-path.js';
import { interpolateUrl } from '../../template/url-template.js';

/**
 * Applies `{{ args.x }}` templates from a tool's call arguments to one field of its spec.
 * Only `args` is in scope. An undefined variable becomes a ToolError (code TEMPLATE_UNDEFINED)
 * so the model sees which argument it has to supply.
 */
export function templateFromArgs(tool: string, value: unknown, args: Record<string, unknown>, field: string, options?: InterpolateOptions): unknown {
  return asToolError(tool, () => interpolate(value, argsLookup(args), `tool ${tool} ${field}`, options));
}

/**
 * An http tool's header value with `{{ args.x }}` and `{{ env.NAME }}` (read from `defined`, the
 * set variables) filled in one pass: an argument holding `{{ env.X }}` stays text, so the model
 * cannot read the environment through it. Errors as templateFromArgs.
 */
export function headerFromArgs(tool: string, value: string, args: Record<string, unknown>, defined: Readonly<Record<string, string>>, field: string): unknown {
  return asToolError(tool, () => interpolate(value, envLookup(defined, argsLookup(args)), `tool ${tool} ${field}`));
}

/**
 * An http tool's URL with `{{ args.x }}` and `{{ args.x | path }}` filled in (url-template.ts);
 * ToolError TEMPLATE_UNDEFINED, INVALID_URL (not an http(s) URL) or PATH_TRAVERSAL.
 */
export function urlFromArgs(tool: string, url: string, args: Record<string, unknown>): string {
  return asToolError(tool, () => interpolateUrl(url, argsLookup(args), `tool ${tool} http.url`));
}

function argsLookup(args: Record<string, unknown>): TemplateLookup {
  return (name) => (name === 'args' ? { found: true, value: args } : { found: false });
}

function asToolError<T>(tool: string, fill: () => T): T {
  try {
    return fill();
  } catch (error) {
    if (error instanceof AgentcheckError) throw new ToolError(tool, error.message, error.code, { cause: error });
    throw error;
  }
}
