import { describe, expect, it } from 'vitest';
import type { Interaction } from '../../../src/runner/cassettes/cassette.js';
import { CASSETTES_FLAG } from '../../../src/runner/cassettes/cassette-mode-setting.js';
import { CassetteSession } from '../../../src/runner/cassettes/cassette-session.js';
import { CASSETTE_RUN, cassetteFileOf } from './cassette-fixture.js';

const URL_A = 'http://shop.test/orders/1';

function interaction(url: string): Interaction {
  return {
    request: { method: 'GET', url, headers: {} },
    match_key: { method: 'GET', url },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { url }, body_type: 'json' },
  };
}

/** A replay session over a cassette of `interactions`, and its file. */
function replaying(interactions: Interaction[]): { session: CassetteSession; path: string } {
  const path = cassetteFileOf(interactions);
  const run = { mode: 'replay' as const, path, ...CASSETTE_RUN };
  return { session: new CassetteSession(run, CASSETTES_FLAG), path };
}

const live = () => Promise.reject(new Error('a replay sends nothing'));

describe('drift once every recorded request is used', () => {
  it('says the cassette holds no more recorded requests, naming the request', async () => {
    const { session, path } = replaying([interaction(URL_A)]);
    expect((await session.respond(new Request(URL_A), live)).status).toBe(200);
    expect((await session.respond(new Request('http://shop.test/orders/2'), live)).status).toBe(404);
    expect(session.failure).toEqual({
      type: 'CASSETTE_DRIFT',
      message: `GET http://shop.test/orders/2 is not in the cassette ${path}, which holds no more recorded requests (its one was used); re-record it with --cassettes record`,
    });
  });

  it('says a request equal to a used one was sent more often than recorded', async () => {
    const { session, path } = replaying([interaction(URL_A)]);
    await session.respond(new Request(URL_A), live);
    await session.respond(new Request(URL_A), live);
    expect(session.failure?.message).toBe(`GET ${URL_A} was sent more often than the cassette ${path} recorded it; re-record it with --cassettes record`);
  });

  it('says an empty cassette holds no requests', async () => {
    const { session, path } = replaying([]);
    await session.respond(new Request(URL_A), live);
    expect(session.failure?.message).toBe(`GET ${URL_A} is not in the cassette ${path}, which holds no requests; re-record it with --cassettes record`);
  });
});
