import type { FormatCheck } from '../../config/assert-format.js';
import type { PathSegments } from '../../config/source.js';

/**
 * The llm (or grader model) at `at` has a sound `provider` and `parameters`, whatever its other
 * keys hold: its parameters can be checked against that provider beside a bad `base_url` or
 * `timeout_ms` (docs/cli.md, validate).
 */
export function soundLlmParts(format: Pick<FormatCheck, 'valid' | 'typed'>, at: PathSegments): boolean {
  return format.typed(at) && format.valid([...at, 'provider']) && format.valid([...at, 'parameters']);
}
