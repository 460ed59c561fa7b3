import type { FormatCheck, Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import { headerProblems } from '../../engine/revision/header-checks.js';
import type { Cassette } from './cassette.js';

/**
 * The rules of a cassette its schema cannot say (docs/cassettes.md, Files), for the parts the
 * format check found sound: a response's headers are ones fetch can answer with (an HTTP token as
 * name, Latin-1 text on one line as value, as a mock's must be). Each at its field, so a hand
 * edit is CASSETTE_INVALID there instead of a replay that fails elsewhere.
 */
export function cassetteRuleProblems(format: FormatCheck<Cassette>, locate: Locator): ConfigError[] {
  if (!format.typed(['interactions'])) return [];
  return format.value.interactions.flatMap((_interaction, index) => {
    const at = ['interactions', index, 'response'];
    if (!format.valid([...at, 'headers'])) return [];
    return headerProblems(format.value.interactions[index].response.headers, [...at, 'headers'], locate, { templated: false });
  });
}
