/**
 * Whether a tool result object says it failed with a non-empty `error` string
 * (`{"error": "not_found"}`). This is the verdict's default error token `"error": "<non-empty>"`
 * (docs/verdicts.md) read on a parsed object: `"error": null`, `""` or `false` is the common
 * success envelope (`{"data": ..., "error": null}`), not a failure. Chains, flow steps and the
 * model bridge all use it, so a result counts the same for every kind of agent.
 */
export function hasErrorText(result: Record<string, unknown>): boolean {
  return typeof result.error === 'string' && result.error.trim() !== '';
}
