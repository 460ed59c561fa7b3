import { quoteCapped } from '../config/cap-text.js';
import { displayUrl, quotedUrl } from '../config/display-url.js';
import { ConfigError } from '../config/errors.js';
import { headerValueProblem, HTTP_TOKEN } from '../config/http-header.js';
import { urlPortProblem } from '../config/url-port.js';
import { urlSyntaxProblem } from '../config/url-syntax-problem.js';
import { parseKeyValueList } from './otlp-key-values.js';
import { resourceAttributesFromEnv } from './otlp-resource.js';

/** Where and how spans go over OTLP/HTTP: resolved from `--otlp` and the standard OTEL_* variables. */
export interface OtlpTarget {
  /** The full traces URL (`.../v1/traces`). */
  url: string;
  /** Request headers; may hold secrets (API keys), so they are never printed. */
  headers: Record<string, string>;
  /** Per-export time limit including retries; undefined keeps the exporter's default (10 s). */
  timeoutMillis?: number;
  /** What configured the URL: `--otlp` or the environment variable's name. */
  source: string;
  /** The wire format: OTLP/HTTP with JSON or protobuf bodies. */
  protocol: OtlpProtocol;
  /** Resource attributes from OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME, laid over agentcheck's own. */
  resource: Record<string, string>;
}

/** The OTLP/HTTP encodings agentcheck exports. */
export type OtlpProtocol = 'http/json' | 'http/protobuf';

type Env = Readonly<Record<string, string | undefined>>;

const TRACES_PATH = 'v1/traces';

/**
 * The export target, or null when nothing asks for export. Precedence follows the OpenTelemetry
 * specification: `--otlp` (a base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT), then
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as is), then OTEL_EXPORTER_OTLP_ENDPOINT (+ `/v1/traces`).
 * A malformed value, one of only whitespace too, is a ConfigError: a typo must not silently turn
 * export off (an empty one is unset, as the specification says).
 */
export function resolveOtlpTarget(flag: string | undefined, env: Env): OtlpTarget | null {
  let url: string;
  let source: string;
  if (flag !== undefined) {
    url = withTracesPath(parseHttpUrl(flag, '--otlp'));
    source = '--otlp';
  } else if (!isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && !isSet(env.OTEL_EXPORTER_OTLP_ENDPOINT)) {
    return null;
  } else if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || tracesExporter(env) === 'none') {
    // The SDK's own switches turn export off only when the user did not ask on the command line.
    return null;
  } else if (isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) {
    source = 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT';
    url = parseHttpUrl(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, source).toString();
  } else {
    source = 'OTEL_EXPORTER_OTLP_ENDPOINT';
    url = withTracesPath(parseHttpUrl(env.OTEL_EXPORTER_OTLP_ENDPOINT!, source), true);
  }
  const headers = {
    ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS'),
    ...parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
  };
  const timeoutMillis = parseTimeout(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') ?? parseTimeout(env, 'OTEL_EXPORTER_OTLP_TIMEOUT');
  const protocol = parseProtocol(env);
  const resource = resourceAttributesFromEnv(env);
  return { url, headers, source, protocol, resource, ...(timeoutMillis === undefined ? {} : { timeoutMillis }) };
}

/**
 * OTEL_TRACES_EXPORTER, a comma-separated list in the OpenTelemetry specification (any letter
 * case): `otlp` (also when unset or empty) exports, `none` turns export from the environment
 * off. agentcheck exports OTLP only, so any other exporter (`zipkin`, `console`) is a ConfigError
 * rather than OTLP sent where something else was asked for.
 */
function tracesExporter(env: Env): 'otlp' | 'none' {
  const name = 'OTEL_TRACES_EXPORTER';
  const raw = env[name] ?? '';
  const entries = raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  const refused = (why: string) => new ConfigError({ file: name }, `expected otlp or none, got ${quoteCapped(raw)}; ${why}`);
  const other = entries.find((entry) => entry !== 'otlp' && entry !== 'none');
  if (other !== undefined) throw refused(`agentcheck exports spans over OTLP only, so ${quoteCapped(other)} is not supported`);
  if (entries.includes('none') && entries.includes('otlp')) throw refused('none turns export off, so it cannot be listed with otlp');
  return entries.includes('none') ? 'none' : 'otlp';
}

function nonEmpty(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

/**
 * Whether an endpoint variable is set: an empty value is unset (the OpenTelemetry specification);
 * one of only whitespace is set, and refused as no URL (a typo must not silently turn export off).
 */
function isSet(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

function parseHttpUrl(value: string, source: string): URL {
  // `localhost:4318` (as collectors' docs write it) parses with `localhost:` as its scheme, and
  // `127.0.0.1:4318` does not parse: both are a host and port without a scheme.
  const hostPort = /^[\w.-]+:\d+(\/.*)?$/.test(value.trim());
  const noScheme = `got "${displayUrl(value.trim())}" without a scheme; did you mean http://${displayUrl(value.trim())}?`;
  // Quoted as given, but for its userinfo and credential query values, with why it is no URL
  // (the parser says only "Invalid URL"); a port no collector can listen on is refused here too.
  const refused = (why: string) =>
    new ConfigError(
      { file: source },
      `expected an http:// or https:// URL such as http://localhost:4318, got ${quotedUrl(withoutUserinfo(value.trim()))}: ${why}`,
    );
  if (!value.trim()) {
    const blank = value ? `${JSON.stringify(value)}, only whitespace` : 'an empty value';
    throw new ConfigError(
      { file: source },
      `expected an http:// or https:// URL such as http://localhost:4318, got ${blank}${source === '--otlp' ? '' : `; leave ${source} empty or unset for no export`}`,
    );
  }
  const port = urlPortProblem(value);
  if (port) throw refused(port);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    if (hostPort) throw new ConfigError({ file: source }, `expected an http:// or https:// URL (OTLP/HTTP), ${noScheme}`);
    throw refused(urlSyntaxProblem(value));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError({ file: source }, `expected an http:// or https:// URL (OTLP/HTTP), ${hostPort ? noScheme : `got the ${url.protocol} scheme`}`);
  }
  return url;
}

/** `text` with what stands before the host's `@` (a user name may be a token) as `[redacted]`. */
function withoutUserinfo(text: string): string {
  return text.replace(/^([A-Za-z][A-Za-z\d+.-]*:\/\/)[^/?#]*@/, '$1[redacted]@');
}

/**
 * A base endpoint gets `/v1/traces` appended, as the specification does for OTEL_EXPORTER_OTLP_ENDPOINT.
 * For `--otlp` a URL that already ends in `/v1/traces` is kept, so both `http://host:4318` and
 * `http://host:6006/v1/traces` (as Phoenix documents it) work.
 */
function withTracesPath(url: URL, always = false): string {
  if (!always && url.pathname.replace(/\/+$/, '').endsWith(`/${TRACES_PATH}`)) return url.toString();
  const base = url.toString().replace(/[?#].*$/, '');
  const joined = new URL(base.endsWith('/') ? `${base}${TRACES_PATH}` : `${base}/${TRACES_PATH}`);
  joined.search = url.search;
  return joined.toString();
}

/** `key1=value1,key2=value2` with percent-encoded values (the W3C baggage form the specification uses). */
function parseHeaders(raw: string | undefined, source: string): Record<string, string> {
  const headers = parseKeyValueList(raw, source, HTTP_TOKEN, 'header name (expected key1=value1,key2=value2)');
  // A decoded value no request can carry (a %0A line break, a character past Latin-1) would fail
  // every export at the end of the suite: refused now, naming the header, never quoting its value.
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerValueProblem(value);
    // The variable's values are percent-decoded already: "percent-encode it" cannot help here.
    if (problem)
      throw new ConfigError(
        { file: source },
        `header ${JSON.stringify(name)}: ${problem.replace('; percent-encode it', '')} (in the value after percent-decoding)`,
      );
  }
  return headers;
}

/**
 * OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, then OTEL_EXPORTER_OTLP_PROTOCOL. agentcheck speaks OTLP over
 * HTTP only; its default stays http/json (what 0.1 sent), so a collector set up for it keeps working.
 */
function parseProtocol(env: Env): OtlpProtocol {
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    if (raw === 'http/json' || raw === 'http/protobuf') return raw;
    const hint = raw === 'grpc' ? "; OTLP over gRPC is not supported, use http/protobuf against the collector's HTTP port (4318)" : '';
    throw new ConfigError({ file: name }, `expected http/protobuf or http/json, got "${raw}"${hint}`);
  }
  return 'http/json';
}

function parseTimeout(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (!nonEmpty(raw)) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError({ file: name }, `expected a time limit in milliseconds > 0, got "${raw}"`);
  return value;
}
