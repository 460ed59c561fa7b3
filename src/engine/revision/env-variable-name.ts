import { quoteCapped } from '../../config/cap-text.js';

/** A name the environment can hold and every shell can set (POSIX portable names). */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Why `name` cannot be an environment variable's name (docs/formats.md: `allow_env`,
 * `external.env`), or undefined when it can. `hint` is said after the message when the name holds
 * `=`, the usual slip of writing a `NAME=value` pair where a name is expected.
 */
export function variableNameProblem(name: string, hint: string): string | undefined {
  if (VARIABLE_NAME.test(name)) return undefined;
  return `expected an environment variable name (letters, digits and _, not starting with a digit), got ${quoteCapped(name)}${name.includes('=') ? `; ${hint}` : ''}`;
}
