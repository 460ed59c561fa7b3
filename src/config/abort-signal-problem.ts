import { describeValue } from './describe-value.js';

/** What a library option or argument that takes an AbortSignal says of `value`, or null when it is one. */
export function abortSignalProblem(value: unknown): string | null {
  return value instanceof AbortSignal ? null : `expected an AbortSignal, got ${describeValue(value)}`;
}
