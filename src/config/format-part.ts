import type { FormatCheck } from './assert-format.js';
import type { PathSegments } from './source.js';

/**
 * What a format check says of one part of a value, its paths relative to that part: a rule checks
 * each key of an entry whose own value is sound, beside the entry's other keys' format problems
 * (docs/cli.md, validate).
 */
export type PartFormat = Pick<FormatCheck, 'valid' | 'typed' | 'validBesideUnknownKeys' | 'misspelt'>;

/** The view of a value with no format problem: every part sound, no key misspelt. */
export const SOUND_FORMAT: PartFormat = { valid: () => true, typed: () => true, validBesideUnknownKeys: () => true, misspelt: () => false };

/** `format`'s view of the part at `base`. */
export function formatAt(format: PartFormat, base: PathSegments): PartFormat {
  return {
    valid: (path) => format.valid([...base, ...path]),
    typed: (path) => format.typed([...base, ...path]),
    validBesideUnknownKeys: (path) => format.validBesideUnknownKeys([...base, ...path]),
    misspelt: (path) => format.misspelt([...base, ...path]),
  };
}
