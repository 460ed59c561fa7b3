import { quoteCapped, shownNames } from './cap-text.js';
import { nearKey } from './did-you-mean.js';
import { ConfigError } from './errors.js';
import { joinPathKey } from './format-path.js';

/**
 * A library entry's options checked by name: a misspelt key (`concurency`, `varient`) is a
 * ConfigError naming it and the keys there are, never ignored for its default. `file` names the
 * entry (`runSuite options`), `at` prefixes the path of nested options (`selection.`).
 */
export function unknownOptionKeys(options: object | undefined, known: readonly string[], file: string, at = ''): ConfigError[] {
  if (!options || typeof options !== 'object') return [];
  return Object.keys(options)
    .filter((key) => !known.includes(key))
    .map((key) => new ConfigError({ file, path: joinPathKey(at.replace(/\.$/, ''), key) }, unknownKeyMessage(key, known)));
}

/** `unknown key "varient" (did you mean "variants"?); expected one of: ...`: one wording for every entry. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const near = nearKey(key, known);
  return `unknown key ${quoteCapped(key)}${near ? ` (did you mean ${quoteCapped(near)}?)` : ''}; expected one of: ${shownNames(known)}`;
}

/**
 * The keys of `T`, each listed once as `{key: true}`: the compiler holds the list to the type, so a
 * key added to the type must be added here too (a file's unknown keys are refused against it).
 */
export function keysOf<T>(keys: Record<keyof T, true>): readonly string[] {
  return Object.keys(keys);
}
