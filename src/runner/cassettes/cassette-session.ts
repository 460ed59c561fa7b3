import { canonicalJson } from '../../config/canonical-json.js';
import { CASSETTE_SCHEMA, type Cassette, type CassetteMode, type Interaction, type MatchKey, type RecordedRequest } from './cassette.js';
import { readCassette, writeCassette } from './cassette-file.js';
import { reRecord, type CassetteModeSetting } from './cassette-mode-setting.js';
import { closestKey } from './drift.js';
import { previewDifference } from './drift-preview.js';
import { readRequest, readResponse, toResponse } from './exchange.js';
import { matchKey } from './match-key.js';
import { SecretStripper } from './secret-stripper.js';

/** The cassette of one run (scenario x variant x repeat) and how to use it. */
export interface CassetteRun {
  mode: Exclude<CassetteMode, 'off'>;
  path: string;
  scenario: string;
  variant: string;
  repeat: number;
}

/** Why a run could not be served from its cassette: its row's error. */
export interface CassetteFailure {
  type: 'CASSETTE_DRIFT' | 'CASSETTE_MISSING' | 'CASSETTE_INVALID';
  message: string;
}

/** What a run did with its cassette, for the run's record. */
export interface CassetteOutcome {
  mode: CassetteRun['mode'];
  path: string;
  replayed: number;
  recorded: number;
  /** The first request that could not be served; the row errors with it. */
  failure: CassetteFailure | null;
}

/** Performs a request for real (through globalThis.fetch). */
export type LiveFetch = (request: Request) => Promise<Response>;

interface Loaded {
  cassette?: Cassette;
  keys: MatchKey[];
  texts: string[];
  used: boolean[];
}

/**
 * One run's cassette, consulted by the process-wide interceptor for each request no scenario
 * mock answers. `replay` serves recorded responses (a request without a match is a failure,
 * never a live call); `record` performs every request live and keeps it; `auto` replays what
 * matches and records the rest. Identical requests match recorded ones in order, so a
 * repeated request (or a retry after a 429) gets its own recorded response.
 */
export class CassetteSession {
  failure: CassetteFailure | null = null;
  private readonly stripper: SecretStripper;
  private loaded?: Promise<Loaded>;
  /** This run's interactions in the order its requests were sent; null while pending or when the request failed. */
  private readonly played: Array<Interaction | null> = [];
  private replayed = 0;
  private recorded = 0;

  /**
   * `env` (values of secret variables) and `secrets` (keys written in the agent build) are
   * scrubbed; `setMode` is how the caller set the mode, for the messages that say to re-record.
   */
  constructor(
    readonly run: CassetteRun,
    private readonly setMode: CassetteModeSetting,
    env: Readonly<Record<string, string | undefined>> = {},
    secrets: readonly string[] = [],
  ) {
    this.stripper = new SecretStripper(env, secrets);
  }

  /** Answers one intercepted request from the cassette, or live (and keeps the pair). */
  async respond(request: Request, live: LiveFetch): Promise<Response> {
    // The slot is taken before any await, so concurrent requests keep the order they were sent in.
    const slot = this.played.push(null) - 1;
    const recordedRequest = await readRequest(request, this.stripper);
    const key = matchKey(recordedRequest);
    if (this.run.mode !== 'record') {
      let loaded: Loaded;
      try {
        loaded = await this.load();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // A located error already starts with the file: said once.
        const where = message.startsWith(this.run.path) ? 'the cassette' : this.run.path;
        return this.fail({ type: 'CASSETTE_INVALID', message: `cannot replay ${where}: ${message}` });
      }
      const text = canonicalJson(key);
      // No await between the search and marking it used: two concurrent requests never take the same one.
      const index = loaded.texts.findIndex((candidate, i) => !loaded.used[i] && candidate === text);
      if (index !== -1 && loaded.cassette) {
        loaded.used[index] = true;
        const interaction = loaded.cassette.interactions[index];
        this.played[slot] = interaction;
        this.replayed++;
        return toResponse(interaction.response);
      }
      if (this.run.mode === 'replay') return this.fail(this.mismatch(recordedRequest, key, loaded));
    }
    return this.record(slot, recordedRequest, key, request, live);
  }

  /** Writes the cassette when this run recorded anything (record, or auto with new requests). */
  async save(): Promise<void> {
    if (this.run.mode === 'replay' || this.recorded === 0) return;
    const cassette: Cassette = {
      schema: CASSETTE_SCHEMA,
      scenario: this.run.scenario,
      variant: this.run.variant,
      repeat: this.run.repeat,
      recorded_at: new Date().toISOString(),
      // In auto mode this is the replayed interactions plus the new ones, in the order sent:
      // recorded interactions this run no longer sends are dropped, so the file matches the run.
      interactions: this.played.filter((interaction): interaction is Interaction => interaction !== null),
    };
    await writeCassette(this.run.path, cassette, (text) => this.stripper.text(text));
  }

  /** Counts and the first failure, for the run's record. */
  outcome(): CassetteOutcome {
    return { mode: this.run.mode, path: this.run.path, replayed: this.replayed, recorded: this.recorded, failure: this.failure };
  }

  private async record(slot: number, request: RecordedRequest, key: MatchKey, original: Request, live: LiveFetch): Promise<Response> {
    let response: Response;
    try {
      response = await live(original);
    } catch (error) {
      // A network failure is not recorded (a replay would have nothing to serve); the caller
      // sees it as a network error and retries as it would without a cassette. The failure
      // rides along as the error response's cause, so the message still says why (ECONNREFUSED).
      return Object.assign(Response.error(), { cause: error });
    }
    const interaction: Interaction = { request, match_key: key, response: await readResponse(response, this.stripper) };
    this.played[slot] = interaction;
    this.recorded++;
    // The caller gets exactly what a replay will serve (secrets scrubbed, body re-serialised).
    return toResponse(interaction.response);
  }

  private load(): Promise<Loaded> {
    this.loaded ??= readCassette(this.run.path, this.setMode).then((cassette) => {
      const keys = cassette?.interactions.map((interaction) => interaction.match_key) ?? [];
      return { cassette, keys, texts: keys.map((key) => canonicalJson(key)), used: keys.map(() => false) };
    });
    return this.loaded;
  }

  /** Keeps the first failure and answers with a non-retryable error, so the run ends quickly. */
  private fail(failure: CassetteFailure): Response {
    this.failure ??= failure;
    const body = { error: { type: failure.type.toLowerCase(), message: `agentcheck cassette: ${failure.message}` } };
    return Response.json(body, { status: 404, headers: { 'x-agentcheck-cassette': failure.type } });
  }

  private mismatch(request: RecordedRequest, key: MatchKey, loaded: Loaded): CassetteFailure {
    const what = `${request.method} ${request.url}`;
    const { path } = this.run;
    if (!loaded.cassette) {
      return {
        type: 'CASSETTE_MISSING',
        message: `no cassette at ${path} to replay ${what} from; record it with ${this.setMode('record')} (or ${this.setMode('auto')})`,
      };
    }
    if (loaded.keys.length === 0) {
      return { type: 'CASSETTE_DRIFT', message: `${what} is not in the cassette ${path}, which holds no requests; ${reRecord(this.setMode)}` };
    }
    const sentMoreOften = () => ({
      type: 'CASSETTE_DRIFT' as const,
      message: `${what} was sent more often than the cassette ${path} recorded it; ${reRecord(this.setMode)}`,
    });
    const unused = loaded.keys.map((_key, i) => i).filter((i) => !loaded.used[i]);
    // Nothing left to compare with: a used interaction is no "closest" request (docs/cassettes.md, Drift).
    if (unused.length === 0) {
      if (loaded.texts.includes(canonicalJson(key))) return sentMoreOften();
      const used = loaded.keys.length === 1 ? 'its one was used' : `all ${loaded.keys.length} were used`;
      return {
        type: 'CASSETTE_DRIFT',
        message: `${what} is not in the cassette ${path}, which holds no more recorded requests (${used}); ${reRecord(this.setMode)}`,
      };
    }
    const closest = closestKey(loaded.keys, unused, key);
    const difference = closest?.comparison.difference;
    if (!closest || !difference) return sentMoreOften();
    const [recorded, now] = previewDifference(difference.recorded, difference.actual);
    return {
      type: 'CASSETTE_DRIFT',
      message:
        `${what} does not match the cassette ${path}: ${difference.path} differs from the closest recorded request, interactions[${closest.index}] ` +
        `(recorded ${recorded}, now ${now}); re-record with ${this.setMode('record')} if the change is intended`,
    };
  }
}
