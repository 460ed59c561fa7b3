import type { ErrorObject } from 'ajv';
import { quoteCapped, quoteJson, shownNames } from './cap-text.js';
import { describeHiddenValue, describeValue as describePlainValue } from './describe-value.js';
import { nearKey } from './did-you-mean.js';
import { ownValue } from './own-key.js';
import { PATTERN_EMPTY_WORDS, PATTERN_WORDS } from './format-patterns.js';
import { isSecretPath } from './redact.js';
import { scrubCredentialShapes } from './redactor.js';
import type { PathSegments } from './source.js';
import { objectShapeWords } from './string-means.js';
import { typeWords } from './type-words.js';

/** `expected one of "a" | "b", got <described>`: how a value outside an enum is told, in files and requests alike. */
export function enumMismatch(allowed: readonly unknown[], described: string): string {
  return `expected one of ${allowed.map(quoteJson).join(' | ')}, got ${described}`;
}

/** A schema violation translated to a path and a sentence saying what was expected. */
export interface SchemaProblem {
  path: PathSegments;
  expected: string;
  /** true when the path names a key that should not be there (locate the key, not its value). */
  atKey: boolean;
  /** The part of the value the problem is about: `path`, or for a missing key, that key's path. */
  subject: PathSegments;
  /** For an unknown key that is a near miss of a known one: that key's path (the typo stands for it). */
  misspells?: PathSegments;
  /** true for a key the object's schema does not name (`additionalProperties`). */
  unknownKey?: boolean;
}

/** Turns an Ajv error into a located, readable problem. */
export function describeSchemaError(error: ErrorObject, root: unknown): SchemaProblem {
  const path = pointerToPath(error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  const at = (expected: string): SchemaProblem => ({ path, expected, atKey: false, subject: path });
  // A value under a secret-named key (a token written unquoted) is described, never quoted: errors reach CI logs.
  const describeValue = isSecretPath(path) ? describeHiddenValue : describePlainValue;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = allowedKeys(error);
      const near = nearKey(key, allowed);
      const suggestion = near === undefined ? '' : ` (did you mean ${quoteCapped(near)}?)`;
      const hint = allowed.length ? `; expected one of: ${shownNames(allowed)}` : '';
      const keyPath = [...path, key];
      const misspells = near === undefined ? {} : { misspells: [...path, near] };
      return { path: keyPath, expected: `unknown key ${quoteCapped(key)}${suggestion}${hint}`, atKey: true, subject: keyPath, unknownKey: true, ...misspells };
    }
    case 'required':
      return {
        path,
        expected: `missing required key ${quoteCapped(String(params.missingProperty))}`,
        atKey: false,
        subject: [...path, String(params.missingProperty)],
      };
    case 'type': {
      // A list of types reads as words: "string or number", not "string,number".
      const types = (Array.isArray(params.type) ? (params.type as unknown[]).map(String) : String(params.type).split(',')).join(' or ');
      const value = valueAt(root, path);
      const shape = objectShapeWords(error.parentSchema, value);
      if (shape) return at(`expected ${shape.expected}, got ${describeValue(value)}${shape.hint}`);
      return at(`expected ${typeWords(error.parentSchema) ?? types}, got ${describeValue(value)}`);
    }
    case 'enum':
      return at(enumMismatch(params.allowedValues as unknown[], describeValue(valueAt(root, path))));
    case 'const':
      return at(`expected ${quoteJson(params.allowedValue)}, got ${describeValue(valueAt(root, path))}`);
    case 'pattern': {
      // A user schema's pattern may be any text (`toString`): only agentcheck's own patterns have words.
      const pattern = String(params.pattern);
      const value = valueAt(root, path);
      const empty = value === '' ? ownValue(PATTERN_EMPTY_WORDS, pattern) : undefined;
      if (empty !== undefined) return at(`expected ${empty}, got an empty string`);
      const words = ownValue(PATTERN_WORDS, pattern) ?? `a string matching ${pattern}`;
      // A refused URL may hold a password or a token: echoed without them.
      return at(`expected ${words}, got ${scrubCredentialShapes(describeValue(value))}`);
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return at(`expected a number ${String(params.comparison)} ${String(params.limit)}, got ${describeValue(valueAt(root, path))}`);
    case 'format':
      return at(`expected format ${quoteJson(params.format)}, got ${describeValue(valueAt(root, path))}`);
    case 'minItems':
      return at(`expected at least ${String(params.limit)} item(s)`);
    case 'maxItems':
      return at(`expected at most ${String(params.limit)} item(s)`);
    case 'minLength':
      return at(`expected a string of at least ${String(params.limit)} character(s)`);
    case 'maxLength':
      return at(`expected a string of at most ${String(params.limit)} character(s)`);
    case 'uniqueItems': {
      // Ajv's i and j are the two equal items' indexes, the later one first.
      const [later, earlier] = [Number(params.i), Number(params.j)].sort((a, b) => b - a);
      return at(`expected no item twice; items ${earlier} and ${later} are the same (${describeValue(valueAt(root, [...path, later]))})`);
    }
    case 'minProperties':
      return at(`expected at least ${String(params.limit)} key(s)`);
    case 'maxProperties': {
      // Which keys: one of them is usually a stray or misplaced key (a check item holds one kind).
      const value = valueAt(root, path);
      const keys = value && typeof value === 'object' ? Object.keys(value) : [];
      return at(`expected at most ${String(params.limit)} key(s), got ${keys.length}: ${keys.map((key) => quoteCapped(key)).join(', ')}`);
    }
    default:
      return at(`expected value that ${error.message ?? 'matches the schema'}`);
  }
}

/** The keys the object schema of an `additionalProperties` error names (Ajv's `verbose` gives the schema). */
export function allowedKeys(error: ErrorObject): string[] {
  return Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
}

function pointerToPath(pointer: string, root: unknown): PathSegments {
  if (!pointer) return [];
  const out: Array<string | number> = [];
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      const index = Number(key);
      out.push(index);
      current = current[index];
    } else {
      out.push(key);
      current = current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
    }
  }
  return out;
}

/** The value at `path` inside `root`, or undefined. */
export function valueAt(root: unknown, path: PathSegments): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
