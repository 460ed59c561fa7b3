import type { FormatCheck, Locator } from '../../config/assert-format.js';
import { describeValue } from '../../config/describe-value.js';
import type { ConfigError } from '../../config/errors.js';
import { headerProblems } from '../../engine/revision/header-checks.js';
import type { Cassette } from './cassette.js';

/**
 * The rules of a cassette its schema cannot say (docs/cassettes.md, Files), for the parts the
 * format check found sound: a response's headers are ones fetch can answer with (an HTTP token as
 * name, Latin-1 text on one line as value, as a mock's must be), and a `text` body is a string.
 * Each at its field, so a hand edit is CASSETTE_INVALID there instead of a replay that fails
 * elsewhere or serves `[object Object]`.
 */
export function cassetteRuleProblems(format: FormatCheck<Cassette>, locate: Locator): ConfigError[] {
  if (!format.typed(['interactions'])) return [];
  return format.value.interactions.flatMap((_interaction, index) => {
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
  });
}
