/** The cassette file format (docs/cassettes.md): what one run sent over HTTP and what came back. */

/** The `schema` value of every cassette file; bumped when the format changes incompatibly. */
export const CASSETTE_SCHEMA = 'agentcheck.cassette/1';

/** `--cassettes` and the suite config's `cassettes.mode`. */
export const CASSETTE_MODES = ['record', 'replay', 'auto', 'off'] as const;
/** One of CASSETTE_MODES. */
export type CassetteMode = (typeof CASSETTE_MODES)[number];

/** A request as stored: secrets already stripped, the body parsed when it is JSON. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Parsed JSON when the text parses as JSON, else the text; absent for an empty body. */
  body?: unknown;
}

/**
 * A response as stored. `body_type` says how `body` turns back into bytes: `json` bodies
 * are re-serialised, `text` bodies are sent as they are (bodies are stored as UTF-8 text).
 */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  body_type: 'json' | 'text';
}

/**
 * The normalised request that replay compares: method, URL (secrets stripped, query sorted)
 * and, for model calls, model / system / messages / tools / parameters; other bodies whole.
 */
export interface MatchKey {
  method: string;
  url: string;
  model?: unknown;
  system?: unknown;
  messages?: unknown;
  tools?: unknown;
  /** The rest of a model call's JSON body (temperature, max_tokens, ...). */
  parameters?: Record<string, unknown>;
  /** A body that is not a model call. */
  body?: unknown;
}

/** One request/response pair, in the order the run sent the requests. */
export interface Interaction {
  request: RecordedRequest;
  match_key: MatchKey;
  response: RecordedResponse;
}

/** One cassette file: the HTTP traffic of one scenario x variant x repeat. */
export interface Cassette {
  schema: typeof CASSETTE_SCHEMA;
  scenario: string;
  variant: string;
  repeat: number;
  recorded_at: string;
  interactions: Interaction[];
}

/** JSON Schema of a cassette file, checked when one is read (so a hand edit gets a located error). */
export const cassetteFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['schema', 'scenario', 'variant', 'repeat', 'recorded_at', 'interactions'],
  properties: {
    schema: { const: CASSETTE_SCHEMA },
    scenario: { type: 'string' },
    variant: { type: 'string' },
    repeat: { type: 'integer', minimum: 0 },
    recorded_at: { type: 'string' },
    interactions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['request', 'match_key', 'response'],
        properties: {
          request: {
            type: 'object',
            additionalProperties: false,
            required: ['method', 'url', 'headers'],
            properties: { method: { type: 'string' }, url: { type: 'string' }, headers: { type: 'object' }, body: {} },
          },
          // The fields matchKey makes, and no others: a key it cannot make would never match.
          match_key: {
            type: 'object',
            additionalProperties: false,
            required: ['method', 'url'],
            properties: {
              method: { type: 'string' },
              url: { type: 'string' },
              model: {},
              system: {},
              messages: {},
              tools: {},
              parameters: { type: 'object' },
              body: {},
            },
          },
          response: {
            type: 'object',
            additionalProperties: false,
            required: ['status', 'headers', 'body', 'body_type'],
            properties: {
              status: { type: 'integer', minimum: 200, maximum: 599 },
              headers: { type: 'object', additionalProperties: { type: 'string' } },
              body: {},
              body_type: { enum: ['json', 'text'] },
            },
          },
        },
      },
    },
  },
} as const;
