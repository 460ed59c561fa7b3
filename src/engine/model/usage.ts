import type { Usage } from './model.js';

/** Adds `part` into `total`; the optional counts appear in the total once any part reports them. */
export function addUsage(total: Usage, part: Usage): void {
  total.input_tokens += part.input_tokens;
  total.output_tokens += part.output_tokens;
  if (part.cached_input_tokens !== undefined) total.cached_input_tokens = (total.cached_input_tokens ?? 0) + part.cached_input_tokens;
  if (part.reasoning_tokens !== undefined) total.reasoning_tokens = (total.reasoning_tokens ?? 0) + part.reasoning_tokens;
}

/** A fresh zero usage. */
export function emptyUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0 };
}
