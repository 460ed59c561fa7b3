import { join } from 'node:path';
import { CASSETTE_SCHEMA, type Interaction } from '../../../src/runner/cassettes/cassette.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** The scenario, variant and repeat of the cassettes cassetteFileOf writes. */
export const CASSETTE_RUN = { scenario: 's.scenario.yaml#s', variant: 'base', repeat: 0 } as const;

/** Writes a cassette of `interactions` (taken as written, valid or not) to a temp folder; its path. */
export function cassetteFileOf(interactions: ReadonlyArray<Interaction | unknown>): string {
  const cassette = { schema: CASSETTE_SCHEMA, ...CASSETTE_RUN, recorded_at: '2026-01-01T00:00:00.000Z', interactions };
  return join(tempDir({ '0.json': JSON.stringify(cassette) }), '0.json');
}
