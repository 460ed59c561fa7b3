import { memoryLocator } from '../config/assert-format.js';
import { collectConfigErrors } from '../config/errors.js';
import type { PathSegments } from '../config/source.js';
import { isPlainObject } from './args/json-value.js';
import { validateToolName } from './tool-name.js';

/**
 * What a check names in the build it runs against, so the loader can refuse a check that can
 * never see what it names (a misspelt tool, an argument the tool does not take, a state check on
 * a build without a flow) instead of letting it pass vacuously. Paths are relative to the
 * check's parameters.
 */
export type CheckReference =
  | {
      kind: 'tool';
      /** Where the name is written. */
      at: PathSegments;
      /** A tool name or `/regex/`, compared after the usual prefix stripping. */
      name: string;
      /** Argument names the check expects, and where the `args` map is written. */
      args?: { names: string[]; at: PathSegments };
      /** Where a `request` matcher is written: only an http tool's call sends a request. */
      request?: PathSegments;
      /**
       * The check passes when none of the calls it sees matches, and it sees only the calls the
       * verdict counts (tool_not_called without `nested: true`): a tool only chains and plans call
       * would leave it passing on every run, so the loader refuses it.
       */
      vacuousWhenNestedOnly?: true;
    }
  | { kind: 'flow_state'; at: PathSegments; /** The state key as written (`context:read_config.error`). */ key: string };

/** A `{tool, args}` pair of check parameters as references (no args reference when none are given). */
export function toolReference(params: { tool?: unknown; args?: unknown; request?: unknown }, at: PathSegments = []): CheckReference[] {
  if (typeof params.tool !== 'string') return [];
  const reference: CheckReference = { kind: 'tool', at: [...at, 'tool'], name: params.tool };
  if (params.args && typeof params.args === 'object' && !Array.isArray(params.args)) {
    reference.args = { names: Object.keys(params.args), at: [...at, 'args'] };
  }
  if (params.request !== undefined) reference.request = [...at, 'request'];
  return [reference];
}

/**
 * What `{tool, args, request}` parameters that did not validate still name (Check.partialReferences):
 * the tool when its name is well-formed, with, where the kind `reads` them, the names of an `args`
 * map whatever its values hold (a bad matcher hides no unknown argument name) and a well-formed `request`.
 */
export function partialToolReference(params: unknown, at: PathSegments = [], reads: { args?: boolean; request?: boolean } = {}): CheckReference[] {
  if (!isPlainObject(params) || !wellFormedToolName(params.tool)) return [];
  return toolReference({ tool: params.tool, args: reads.args ? params.args : undefined, request: reads.request ? params.request : undefined }, at);
}

/**
 * The references of a check that passes when no call it sees matches (tool_not_called), marked
 * vacuousWhenNestedOnly unless it sees nested calls too (`nested: true`).
 */
export function absenceReferences(references: readonly CheckReference[], nested: unknown): CheckReference[] {
  if (nested === true) return [...references];
  return references.map((reference): CheckReference => (reference.kind === 'tool' ? { ...reference, vacuousWhenNestedOnly: true } : reference));
}

/** Whether `value` is a usable expected tool name (validateToolName finds nothing). */
export function wellFormedToolName(value: unknown): value is string {
  return collectConfigErrors([], () => validateToolName(value, [], memoryLocator('tool')));
}
