import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { displayUrl } from '../../src/config/display-url.js';
import { resolveOtlpTarget } from '../../src/spans/otlp-target.js';

describe('resolveOtlpTarget', () => {
  it('appends /v1/traces to a base endpoint and keeps a full traces URL', () => {
    expect(resolveOtlpTarget('http://localhost:4318', {})?.url).toBe('http://localhost:4318/v1/traces');
    expect(resolveOtlpTarget('https://cloud.example/api/public/otel/', {})?.url).toBe('https://cloud.example/api/public/otel/v1/traces');
    expect(resolveOtlpTarget('http://localhost:6006/v1/traces', {})?.url).toBe('http://localhost:6006/v1/traces');
    expect(resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })?.url).toBe('http://collector:4318/v1/traces');
    expect(resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/x' })?.url).toBe('http://collector:4318/x');
  });

  it('follows the specification precedence: flag, traces endpoint, general endpoint', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/v1/traces' };
    expect(resolveOtlpTarget('http://flag:4318', env)).toMatchObject({ url: 'http://flag:4318/v1/traces', source: '--otlp' });
    expect(resolveOtlpTarget(undefined, env)).toMatchObject({ url: 'http://traces:4318/v1/traces', source: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' });
    expect(resolveOtlpTarget(undefined, { ...env, OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(resolveOtlpTarget(undefined, { ...env, OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
    // An empty value is unset (the specification): the other variable, or no export.
    expect(resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBeNull();
    expect(resolveOtlpTarget(undefined, { ...env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' })?.url).toBe('http://general:4318/v1/traces');
  });

  it('refuses an endpoint of only whitespace, which would silently turn export off, naming the variable', () => {
    // Before, " " was read as unset: nothing was exported and nothing said so.
    expect(() => resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT: expected an http:// or https:// URL such as http://localhost:4318, got " ", only whitespace; leave OTEL_EXPORTER_OTLP_ENDPOINT empty or unset for no export',
    );
    expect(() => resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '\t' })).toThrow(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: expected an http:// or https:// URL such as http://localhost:4318, got "\\t", only whitespace',
    );
    expect(() => resolveOtlpTarget('  ', {})).toThrow('--otlp: expected an http:// or https:// URL such as http://localhost:4318, got "  ", only whitespace');
  });

  it('reads OTEL_TRACES_EXPORTER as the specification lists it: otlp exports, none does not, any other exporter is refused', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    for (const value of ['otlp', 'OTLP', ' otlp ', 'otlp,otlp', '']) {
      expect(resolveOtlpTarget(undefined, { ...env, OTEL_TRACES_EXPORTER: value })?.url, value).toBe('http://collector:4318/v1/traces');
    }
    for (const value of ['none', 'None', ' none']) expect(resolveOtlpTarget(undefined, { ...env, OTEL_TRACES_EXPORTER: value }), value).toBeNull();
    const refusal = (value: string) => () => resolveOtlpTarget(undefined, { ...env, OTEL_TRACES_EXPORTER: value });
    expect(refusal('zipkin')).toThrow(ConfigError);
    expect(refusal('zipkin')).toThrow(
      'OTEL_TRACES_EXPORTER: expected otlp or none, got "zipkin"; agentcheck exports spans over OTLP only, so "zipkin" is not supported',
    );
    expect(refusal('otlp,console')).toThrow(
      'OTEL_TRACES_EXPORTER: expected otlp or none, got "otlp,console"; agentcheck exports spans over OTLP only, so "console" is not supported',
    );
    expect(refusal('otlp,none')).toThrow(
      'OTEL_TRACES_EXPORTER: expected otlp or none, got "otlp,none"; none turns export off, so it cannot be listed with otlp',
    );
    // --otlp decides whatever the variable says, as it does over none; without an endpoint nothing is exported or read.
    expect(resolveOtlpTarget('http://flag:4318', { OTEL_TRACES_EXPORTER: 'zipkin' })?.url).toBe('http://flag:4318/v1/traces');
    expect(resolveOtlpTarget(undefined, { OTEL_TRACES_EXPORTER: 'zipkin' })).toBeNull();
  });

  it('merges general and traces headers (traces win), percent-decoded, and reads the timeout', () => {
    const target = resolveOtlpTarget('http://h:4318', {
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Basic%20abc, x-a=1',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-a=2',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '2500',
    });
    expect(target?.headers).toEqual({ Authorization: 'Basic abc', 'x-a': '2' });
    expect(target?.timeoutMillis).toBe(2500);
  });

  it('keeps a resource attribute or header named __proto__ as a key', () => {
    const target = resolveOtlpTarget('http://h:4318', { OTEL_RESOURCE_ATTRIBUTES: '__proto__=x,team=a', OTEL_EXPORTER_OTLP_HEADERS: '__proto__=y' });
    expect(JSON.stringify(target?.resource)).toBe('{"__proto__":"x","team":"a"}');
    expect(JSON.stringify(target?.headers)).toBe('{"__proto__":"y"}');
  });

  it('lets the traces variable win over the general one for the timeout and the protocol, as docs/otlp-export.md says', () => {
    const env = {
      OTEL_EXPORTER_OTLP_TIMEOUT: '500',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '3000',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    };
    expect(resolveOtlpTarget('http://h:4318', env)).toMatchObject({ timeoutMillis: 3000, protocol: 'http/protobuf' });
    const doc = readFileSync(join(import.meta.dirname, '../../docs/otlp-export.md'), 'utf8');
    for (const pair of ['HEADERS', 'TIMEOUT', 'PROTOCOL']) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`OTEL_EXPORTER_OTLP_${pair}\`, \`OTEL_EXPORTER_OTLP_TRACES_${pair}\` |`));
      expect(row, pair).toContain('the traces variable wins');
    }
  });

  it('rejects malformed values with a ConfigError that never shows a header value', () => {
    expect(() => resolveOtlpTarget('localhost:4318', {})).toThrow(ConfigError);
    // A host:port without http:// is the usual slip: the message suggests the URL, not "the localhost: scheme".
    expect(() => resolveOtlpTarget('localhost:4318', {})).toThrow(
      '--otlp: expected an http:// or https:// URL (OTLP/HTTP), got "localhost:4318" without a scheme; did you mean http://localhost:4318?',
    );
    // An address, which does not even parse as a URL, gets the same suggestion.
    expect(() => resolveOtlpTarget('127.0.0.1:4318', {})).toThrow(
      '--otlp: expected an http:// or https:// URL (OTLP/HTTP), got "127.0.0.1:4318" without a scheme; did you mean http://127.0.0.1:4318?',
    );
    expect(() => resolveOtlpTarget('ftp://h:21', {})).toThrow('got the ftp: scheme');
    expect(() => resolveOtlpTarget('not a url', {})).toThrow(/--otlp: expected an http/);
    // A value the URL parser refuses is quoted as given, with why it is no URL (the parser says only "Invalid URL").
    const expected = 'expected an http:// or https:// URL such as http://localhost:4318, got';
    expect(() => resolveOtlpTarget('http://collector host:4318', {})).toThrow(
      `--otlp: ${expected} "http://collector host:4318": its host "collector host" holds a space, which no host name may hold`,
    );
    expect(() => resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:43180000' })).toThrow(
      `OTEL_EXPORTER_OTLP_ENDPOINT: ${expected} "http://collector:43180000": port 43180000 is out of range: a port is 1-65535`,
    );
    // Port 0 parses, but no collector listens there.
    expect(() => resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:0/v1/traces' })).toThrow(
      `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ${expected} "http://collector:0/v1/traces": port 0 is out of range: a port is 1-65535`,
    );
    // A user name may be a token, a query value a key: neither is quoted.
    expect(() => resolveOtlpTarget('https://sk-live-123@otel host/x?api_key=k3y', {})).toThrow(
      `--otlp: ${expected} "https://[redacted]@otel host/x?api_key=[redacted]": its host "otel host" holds a space, which no host name may hold`,
    );
    expect(() => resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://x:4317' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    let error: unknown;
    try {
      resolveOtlpTarget('http://h', { OTEL_EXPORTER_OTLP_HEADERS: 'ok=1,s3cret-without-equals' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('OTEL_EXPORTER_OTLP_HEADERS');
    expect((error as Error).message).toContain('entry 2');
    expect((error as Error).message).not.toContain('s3cret');
    expect(() => resolveOtlpTarget('http://h', { OTEL_EXPORTER_OTLP_TIMEOUT: '-1' })).toThrow(/OTEL_EXPORTER_OTLP_TIMEOUT/);
    // A value that decodes to what no request can carry fails before the run, the value unquoted.
    expect(() => resolveOtlpTarget('http://h', { OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%0Asecretvalue' })).toThrow(
      'OTEL_EXPORTER_OTLP_HEADERS: header "Authorization": a header value cannot hold a line break (LF, character 7 of the value): expected one line of text (in the value after percent-decoding)',
    );
    expect(() => resolveOtlpTarget('http://h', { OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'X-Extra=%E2%82%AC' })).toThrow(
      /OTEL_EXPORTER_OTLP_TRACES_HEADERS: header "X-Extra": a header value cannot hold U\+20AC \(character 1 of the value\): headers carry Latin-1 characters only \(up to U\+00FF\) \(in the value after percent-decoding\)$/,
    );
  });

  it('reads the protocol (traces variable first), refuses grpc and unknown values, and parses resource attributes', () => {
    expect(resolveOtlpTarget('http://h:4318', {})?.protocol).toBe('http/json');
    expect(resolveOtlpTarget('http://h:4318', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })?.protocol).toBe('http/protobuf');
    expect(
      resolveOtlpTarget('http://h:4318', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' })?.protocol,
    ).toBe('http/json');
    expect(() => resolveOtlpTarget('http://h:4318', { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL: expected http\/protobuf or http\/json, got "grpc"; OTLP over gRPC is not supported/,
    );
    expect(() => resolveOtlpTarget('http://h:4318', { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/proto' })).toThrow(ConfigError);
    expect(resolveOtlpTarget('http://h:4318', { OTEL_RESOURCE_ATTRIBUTES: 'a=1,b=x%2Cy', OTEL_SERVICE_NAME: 'svc' })?.resource).toEqual({
      a: '1',
      b: 'x,y',
      'service.name': 'svc',
    });
    expect(resolveOtlpTarget('http://h:4318', {})?.resource).toEqual({});
    expect(() => resolveOtlpTarget('http://h:4318', { OTEL_RESOURCE_ATTRIBUTES: 'a=1,novalue' })).toThrow(/OTEL_RESOURCE_ATTRIBUTES: entry 2 is not key=value/);
  });

  it('prints URLs without credentials or query', () => {
    expect(displayUrl('https://user:pw@host:1/v1/traces?api_key=k')).toBe('https://host:1/v1/traces');
    // Not a URL: shown as typed, unless it could hold a credential or token.
    expect(displayUrl('notaurl')).toBe('notaurl');
    expect(displayUrl('user:pw@nohost')).toBe('(invalid URL)');
    expect(displayUrl('x?token=abc')).toBe('(invalid URL)');
  });
});
