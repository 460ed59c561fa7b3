import { describeValue } from '../../config/describe-value.js';
import { WireError } from './wire-request.js';

/**
 * The type of a request's top-level settings (`stream`, `max_tokens`, `temperature`, ...).
 * Most are not passed on (docs/external-agents.md, Translation), but a mistyped one is still a
 * request the provider would refuse: the bridge refuses it too, so an agent's bug shows here.
 * The ranges are only the providers' plain, stable rules (a token limit of at least 1, a
 * sampling value within its documented bounds).
 */
export type SettingKind =
  | 'boolean'
  | 'number'
  | 'number from 0 to 1'
  | 'number from 0 to 2'
  | 'whole number'
  | 'whole number 1 or more'
  | 'string'
  | 'non-empty string'
  | 'object'
  | 'string or array of strings'
  | 'array of strings'
  | 'string or object';

const EXPECTED: Record<SettingKind, string> = {
  boolean: 'true or false',
  number: 'a number',
  'number from 0 to 1': 'a number from 0 to 1',
  'number from 0 to 2': 'a number from 0 to 2',
  'whole number': 'a whole number',
  'whole number 1 or more': 'a whole number 1 or more',
  string: 'a string',
  'non-empty string': 'a non-empty string',
  object: 'an object',
  'string or array of strings': 'a string or an array of strings',
  'array of strings': 'an array of strings',
  'string or object': 'a string or an object',
};

/**
 * Fails with a WireError naming the first setting of `root` whose value is not of its kind. A
 * setting may be absent or null unless `required` names it: the API refuses a request without it
 * (`model`; Anthropic's `max_tokens`), so the bridge does too, and an agent that omits it fails
 * here as it would against the provider.
 */
export function checkSettings(
  root: Record<string, unknown>,
  kinds: Readonly<Record<string, SettingKind>>,
  prefix = '',
  required: readonly string[] = [],
): void {
  for (const [name, kind] of Object.entries(kinds)) {
    const value = root[name];
    if (value === undefined || value === null) {
      if (required.includes(name)) throw new WireError(`${prefix}${name} is required (${EXPECTED[kind]}), got ${describeValue(value)}`);
      continue;
    }
    if (!isKind(value, kind)) throw new WireError(`${prefix}${name} must be ${EXPECTED[kind]}, got ${describeValue(value)}`);
  }
}

function isKind(value: unknown, kind: SettingKind): boolean {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const isStrings = Array.isArray(value) && value.every((item) => typeof item === 'string');
  switch (kind) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'number from 0 to 1':
      return typeof value === 'number' && value >= 0 && value <= 1;
    case 'number from 0 to 2':
      return typeof value === 'number' && value >= 0 && value <= 2;
    // Any finite whole number, however large (1e20): the value is not passed on, and a model's own
    // cap is the provider's rule (docs/external-agents.md), so a refusal never contradicts its words.
    case 'whole number':
      return Number.isInteger(value);
    case 'whole number 1 or more':
      return Number.isInteger(value) && (value as number) >= 1;
    case 'string':
      return typeof value === 'string';
    case 'non-empty string':
      return typeof value === 'string' && value !== '';
    case 'object':
      return isObject;
    case 'string or array of strings':
      return typeof value === 'string' || isStrings;
    case 'array of strings':
      return isStrings;
    case 'string or object':
      return typeof value === 'string' || isObject;
  }
}
