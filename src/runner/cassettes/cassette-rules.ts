import type { FormatCheck, Locator } from '../../config/assert-format.js';
import { describeValue } from '../../config/describe-value.js';
import type { ConfigError } from '../../config/errors.js';
import { headerProblems } from '../../engine/revision/header-checks.js';
import type { Cassette } from './cassette.js';

/**
 * The rules of a cassette its schema cannot say (docs/cassettes.md, Files), for the parts the
 * format check found sound: a match key is one kind of request's, a response's headers are ones
 * fetch can answer with (an HTTP token as name, Latin-1 text on one line as value, as a mock's
 * must be), and a `text` body is a string. Each at its field, so a hand edit is CASSETTE_INVALID
 * there instead of a replay that drifts, fails elsewhere or serves `[object Object]`.
 */
export function cassetteRuleProblems(format: FormatCheck<Cassette>, locate: Locator): ConfigError[] {
  if (!format.typed(['interactions'])) return [];
  return format.value.interactions.flatMap((_interaction, index) => [...matchKeyProblems(format, index, locate), ...responseProblems(format, index, locate)]);
}

/** The match key fields of a model call (docs/cassettes.md, Matching); any other request's key has `body` instead. */
const MODEL_CALL_FIELDS = ['model', 'system', 'messages', 'tools', 'parameters'] as const;

/** A match key holds the fields of one kind of request: a model call's, or another request's `body`, never both. */
function matchKeyProblems(format: FormatCheck<Cassette>, index: number, locate: Locator): ConfigError[] {
  const at = ['interactions', index, 'match_key'];
  if (!format.typed(at)) return [];
  const key = format.value.interactions[index].match_key;
  const modelField = MODEL_CALL_FIELDS.find((field) => Object.hasOwn(key, field));
  if (modelField === undefined || !Object.hasOwn(key, 'body')) return [];
  return [
    locate(
      [...at, 'body'],
      `a match key has a model call's fields (here "${modelField}") or the "body" of another request, not both: no request has such a key`,
      true,
    ),
  ];
}

/** A response's headers are ones fetch can answer with, and a `text` body is a string. */
function responseProblems(format: FormatCheck<Cassette>, index: number, locate: Locator): ConfigError[] {
  const at = ['interactions', index, 'response'];
  if (!format.typed(at)) return [];
  const { headers, body, body_type } = format.value.interactions[index].response;
  const problems = format.valid([...at, 'headers']) ? headerProblems(headers, [...at, 'headers'], locate, { templated: false }) : [];
  // A `json` body is any JSON value (re-serialised); a `text` one is sent as stored, so only text can be given the wrong kind.
  if (format.valid([...at, 'body_type']) && body_type === 'text' && body !== undefined && typeof body !== 'string') {
    problems.push(
      locate([...at, 'body'], `a body_type "text" body is sent as stored, so it must be a string, got ${describeValue(body)}; or set body_type "json"`),
    );
  }
  return problems;
}
