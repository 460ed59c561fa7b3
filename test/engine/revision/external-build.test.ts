import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { buildAgent } from '../../../src/engine/revision/build-agent.js';
import { applyDelta } from '../../../src/engine/revision/delta.js';
import { loadAgentBuild } from '../../../src/engine/revision/load-build.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { tempDir } from '../../helpers/temp-dir.js';

function load(yaml: string) {
  const dir = tempDir({ 'agent.yaml': yaml });
  return loadAgentBuild(join(dir, 'agent.yaml'));
}

function errorOf(yaml: string): ConfigError {
  return configErrorOf(() => load(yaml));
}

const command = `id: ext
external:
  command: [node, agent.mjs]
  env: {MODE: test}
  timeout_ms: 5000
  tools:
    - name: lookup
      parameters: {type: object, properties: {id: {type: string}}}
`;

describe('external agent builds', () => {
  it('load a command engine; its agent view takes the name from the id', () => {
    const revision = load(command);
    expect(revision.build.external?.command).toEqual(['node', 'agent.mjs']);
    expect(buildAgent(revision.build)).toEqual({ name: 'ext' });
  });

  it('load an http engine with env templates in headers and a started server', () => {
    const revision = load(`id: ext
external:
  name: Remote bot
  llm: {provider: scripted, model: s}
  http:
    url: http://127.0.0.1:{port}/invoke
    headers: {Authorization: "Bearer {{ env.AGENT_TOKEN }}"}
    start: {command: [node, server.mjs], ready_path: /health}
`);
    expect(buildAgent(revision.build)).toEqual({ name: 'Remote bot', llm: { provider: 'scripted', model: 's' } });
  });

  it('refuse a build with neither agent nor external, and one with both', () => {
    expect(errorOf('id: x\n').message).toContain('expected an "agent" (with an optional "flow") or an "external" agent; the build has neither');
    const both = errorOf(`id: x\nagent: {name: A}\nexternal: {command: [a]}\n`);
    expect(both.message).toMatch(/agent\.yaml:2:1 at agent: "agent" and "external" cannot both be given/);
  });

  it('say a build has both kinds, at each clashing key before the problems inside it', () => {
    const error = errorOf(`id: x\nagent: {instructions: hi}\nflow: {entry_point: a}\nexternal: {command: [a]}\n`) as ConfigErrors;
    expect(error.errors.map((one) => `${one.path}: ${one.expected.slice(0, 40)}`)).toEqual([
      'agent: "agent" and "external" cannot both be gi',
      'agent: missing required key "name"',
      'flow: "flow" and "external" cannot both be giv',
      'flow: missing required key "components"',
    ]);
    expect(error.errors[0].message).toMatch(
      /agent\.yaml:2:1 at agent: "agent" and "external" cannot both be given: a build names exactly one of "agent" \(with an optional "flow"\) and "external"/,
    );
    expect(errorOf(`id: x\nflow: {}\nexternal: {command: []}\n`).path).toBe('flow');
  });

  it('a build with both kinds hides no problem inside external or agent', () => {
    const error = errorOf(
      [
        'id: weather-bot',
        'external:',
        '  command: [node, agent.mjs]',
        '  http: {url: "http://x"}',
        '  timeout_ms: -1',
        '  llm: {provider: scriptd}',
        '  tools:',
        '    - {nme: x}',
        'agent: {name: A, max_turns: 0}',
        '',
      ].join('\n'),
    ) as ConfigErrors;
    expect(error.errors.map((one) => `${one.line} ${one.path}`)).toEqual([
      '3 external',
      '5 external.timeout_ms',
      '6 external.llm',
      '6 external.llm.provider',
      '8 external.tools[0].nme',
      '9 agent',
      '9 agent.max_turns',
    ]);
  });

  it('refuse a ./ command file missing beside the build, also when a delta names it', () => {
    const dir = tempDir({ 'agents/agent.yaml': 'id: x\nexternal: {command: [node, ./agent.mjs]}\n', 'agents/agent.mjs': '', 'agent.mjs': '' });
    const revision = loadAgentBuild(join(dir, 'agents', 'agent.yaml'));
    expect(applyDelta(revision, { set: { external: { command: ['node', '../agent.mjs'] } } }).build.external?.command).toEqual(['node', '../agent.mjs']);
    // The delta's own folder does not matter: the run resolves ./ against the build file's.
    const error = configErrorOf(() => applyDelta(revision, { set: { external: { command: ['node', './nope.mjs'] } } }));
    expect(error.path).toBe('set.external.command[1]');
    expect(error.message).toContain(
      `after applying the delta: "./nope.mjs" does not exist: ./ and ../ paths of a command are relative to the build file's folder, so expected a file at ${join(dir, 'agents', 'nope.mjs')}`,
    );
  });

  it('refuse both or neither of command and http', () => {
    expect(errorOf('id: x\nexternal: {env: {A: b}}\n').message).toContain('needs exactly one of "command"');
    expect(errorOf('id: x\nexternal: {command: [a], http: {url: "http://x"}}\n').message).toContain('has "command" and "http"; expected exactly one');
  });

  it('refuse an empty command, a non-http url, a non-string env value and a zero timeout, located', () => {
    expect(errorOf('id: x\nexternal: {command: []}\n').path).toBe('external.command');
    const url = errorOf('id: x\nexternal: {http: {url: "ftp://host/x"}}\n');
    expect(url.path).toBe('external.http.url');
    expect(url.message).toContain('expected an http:// or https:// URL');
    expect(errorOf('id: x\nexternal: {command: [a], env: {A: 1}}\n').path).toBe('external.env.A');
    expect(errorOf('id: x\nexternal: {command: [a], timeout_ms: 0}\n').path).toBe('external.timeout_ms');
  });

  it('refuse {port} without start, templates other than env, bridge variables in env and bad tools', () => {
    expect(errorOf('id: x\nexternal: {http: {url: "http://127.0.0.1:{port}/"}}\n').message).toContain('add "http.start"');
    expect(errorOf('id: x\nexternal: {http: {url: "http://h/", headers: {A: "{{ args.t }}"}}}\n').message).toContain(
      'read the environment only, as {{ env.NAME }}',
    );
    expect(errorOf('id: x\nexternal: {command: [a], env: {OPENAI_BASE_URL: "http://x"}}\n').message).toContain('"OPENAI_BASE_URL" is set by agentcheck');
    expect(
      errorOf(
        'id: x\nexternal: {http: {url: "http://127.0.0.1:{port}/i", spans_url: "http://127.0.0.1:{port}/s/{trace_id}", start: {command: [node, s.mjs]}}}\n',
      ).path,
    ).toBe('external.http.spans_url');
    const both = errorOf('id: x\nexternal: {command: [a], http: {url: "http://x/"}, timeout_ms: -1}\n');
    expect(both.message).toContain('has "command" and "http"; expected exactly one of them');
    expect(both.message).toContain('external.timeout_ms');
    expect(errorOf('id: x\nexternal: {command: [a], env: {AGENTCHECK_RUN_TAG: mine}}\n').message).toContain(
      '"AGENTCHECK_RUN_TAG" is set by agentcheck to mark the run\'s processes',
    );
    const dup = errorOf('id: x\nexternal: {command: [a], tools: [{name: t}, {name: t}]}\n');
    expect(dup.message).toContain('duplicate tool name "t" (already used by external.tools[0])');
    expect(errorOf('id: x\nexternal: {command: [a], tools: [{name: t, parameters: {type: string}}]}\n').path).toBe('external.tools[0].parameters.type');
    expect(errorOf('id: x\nexternal: {command: [a], tools: [{name: t, parameters: {properties: {n: {type: integer, default: 1.5}}}}]}\n')).toMatchObject({
      path: 'external.tools[0].parameters.properties.n.default',
      expected: 'default does not fit its own schema: expected integer, got number 1.5',
    });
  });

  it('refuse a template other than {{ env.NAME }} in external.env at its key; {{ env.NAME }} is left to the run', () => {
    const error = errorOf('id: x\nexternal:\n  command: [a]\n  env: {MODE: "{{ args.mode }}"}\n');
    expect(error.path).toBe('external.env.MODE');
    expect(error.message).toContain(
      'agent.yaml:4:15 at external.env.MODE: unknown template "{{ args.mode }}": an external agent\'s env values read the environment only, as {{ env.NAME }}',
    );
    expect(errorOf('id: x\nexternal: {command: [a], env: {MODE: "{{ env.X"}}\n').path).toBe('external.env.MODE');
    expect(load('id: x\nexternal: {command: [a], env: {TOKEN: "Bearer {{ env.CI_TOKEN }}"}}\n').build.external?.env).toEqual({
      TOKEN: 'Bearer {{ env.CI_TOKEN }}',
    });
  });

  it('refuse every bad external.env and header template in one pass, the first problem of each value at its key', () => {
    const error = errorOf(
      [
        'id: x',
        'external:',
        '  http:',
        '    url: "http://127.0.0.1:8080/invoke"',
        '    headers: {X-A: "{{ args.a }}", X-B: "{{ vars.b }}"}',
        '  env:',
        '    MODE: "{{ args.mode }}"',
        '    OTHER: "{{ vars.x }}"',
        '    GOOD: "{{ env.HOME }}"',
        '    OPEN: "a {{ env.Y"',
        '    TWO: "{{ a.b }} {{ c.d }}"',
        '',
      ].join('\n'),
    ) as ConfigErrors;
    expect(error.errors.map((one) => `${one.line}:${one.column} ${one.path}: ${one.expected}`)).toEqual([
      '5:20 external.http.headers.X-A: unknown template "{{ args.a }}": an external agent\'s headers read the environment only, as {{ env.NAME }}',
      '5:41 external.http.headers.X-B: unknown template "{{ vars.b }}": an external agent\'s headers read the environment only, as {{ env.NAME }}',
      '7:11 external.env.MODE: unknown template "{{ args.mode }}": an external agent\'s env values read the environment only, as {{ env.NAME }}',
      '8:12 external.env.OTHER: unknown template "{{ vars.x }}": an external agent\'s env values read the environment only, as {{ env.NAME }}',
      '10:11 external.env.OPEN: unclosed template "{{ env.Y": expected "}}" to close "{{"',
      '11:10 external.env.TWO: unknown template "{{ a.b }}": an external agent\'s env values read the environment only, as {{ env.NAME }}',
    ]);
  });

  it("say a value's template problem beside another value's format problem (a number), in env and in headers", () => {
    const lines = (yaml: string) => (errorOf(yaml) as ConfigErrors).errors.map((one) => `${one.path}: ${one.expected.split(': an external')[0]}`).sort();
    // Before, the number alone was said: MODE's template was checked only when every value was a string.
    expect(lines('id: t2\nexternal:\n  command: [node, agent.mjs]\n  env: {MODE: "{{ args.mode }}", PORT2: 5}\n')).toEqual([
      'external.env.MODE: unknown template "{{ args.mode }}"',
      'external.env.PORT2: expected string, got number 5',
    ]);
    // A header's template is checked beside another header's number, and beside a url of the wrong type.
    expect(lines('id: t3\nexternal:\n  http:\n    url: 5\n    headers: {X-A: "{{ args.a }}", X-B: 5}\n')).toEqual([
      'external.http.headers.X-A: unknown template "{{ args.a }}"',
      'external.http.headers.X-B: expected string, got number 5',
      'external.http.url: expected string, got number 5',
    ]);
  });

  it('refuse an http url or spans_url that is no URL as written: {{ env.X }} templates, a {port} no port can fill', () => {
    const url = errorOf('id: x\nexternal:\n  http:\n    url: "http://{{ env.HOST }}/invoke"\n');
    expect(url.path).toBe('external.http.url');
    expect(url.message).toContain(
      'agent.yaml:4:10 at external.http.url: templates are not filled in here (only external.http.headers take {{ env.NAME }}); write the URL, got "http://{{ env.HOST }}/invoke"',
    );
    const spans = errorOf('id: x\nexternal:\n  http:\n    url: "http://127.0.0.1:8080/invoke"\n    spans_url: "https://{{ env.X }}/t/{trace_id}"\n');
    expect(spans.message).toContain('agent.yaml:5:16 at external.http.spans_url: templates are not filled in here');
    // {port} stands for a port up to 65535: one followed by a digit never makes a URL.
    const port = errorOf('id: x\nexternal:\n  http:\n    url: "http://127.0.0.1:{port}0/invoke"\n    start: {command: [a]}\n');
    expect(port.message).toContain(
      'agent.yaml:4:10 at external.http.url: expected an absolute URL such as "https://api.example.com/items", got "http://127.0.0.1:{port}0/invoke" (with {port} filled in, e.g. 65535)',
    );
    expect(errorOf('id: x\nexternal: {http: {url: "127.0.0.1:8080/invoke"}}\n').message).toContain(
      'expected an absolute URL such as "https://api.example.com/items", got "127.0.0.1:8080/invoke"',
    );
    expect(
      load('id: x\nexternal: {http: {url: "http://{port}/i", spans_url: "https://t.example/{trace_id}", start: {command: [a]}}}\n').build.external?.http?.url,
    ).toBe('http://{port}/i');
  });

  it('refuse PORT in env for a server agentcheck starts (it sets PORT), at its key; a command agent may set it', () => {
    const error = errorOf('id: x\nexternal:\n  env: {MODE: a, PORT: "9999"}\n  http:\n    url: http://127.0.0.1:{port}/i\n    start: {command: [a]}\n');
    expect(error.path).toBe('external.env.PORT');
    expect(error.message).toContain(
      'agent.yaml:3:18 at external.env.PORT: "PORT" is set by agentcheck to the free port the server of http.start listens on (what {port} in the url stands for); it cannot be overridden',
    );
    expect(load('id: x\nexternal: {command: [a], env: {PORT: "9999"}}\n').build.external?.env).toEqual({ PORT: '9999' });
  });

  it('refuse env names no environment can hold, each at its key, as allow_env refuses them', () => {
    const error = errorOf('id: x\nexternal:\n  command: [a]\n  env: {"A=B": y, "BAD NAME": z, "1X": w, GOOD_1: v}\n');
    expect(error.message.split('\n').map((line) => line.replace(/^.*? at /, ''))).toEqual([
      'external.env.A=B: expected an environment variable name (letters, digits and _, not starting with a digit), got "A=B"; env maps each name to its value: write NAME: value',
      'external.env["BAD NAME"]: expected an environment variable name (letters, digits and _, not starting with a digit), got "BAD NAME"',
      'external.env.1X: expected an environment variable name (letters, digits and _, not starting with a digit), got "1X"',
    ]);
    expect(load('id: x\nexternal: {command: [a], env: {GOOD_1: v}}\n').build.external?.env).toEqual({ GOOD_1: 'v' });
  });

  it('refuse headers fetch could never send, each at its key or value; what {{ env.X }} fills in is left to the run', () => {
    const error = errorOf(`id: x
external:
  http:
    url: http://127.0.0.1:8080/invoke
    headers:
      Bad Header: v
      "{{ env.NAME }}": v
      X-Break: "line\\nbreak"
      X-Nul: "a\\0b"
      X-Arrow: "{{ env.A }}\u2192"
      X-Late: "Bearer {{ env.T }}\\r"
      X-Fine: "Bearer {{ env.T }} caf\u00e9"
`) as ConfigErrors;
    expect(error.errors.map((one) => one.message.replace(/^.*agent\.yaml:/, ''))).toEqual([
      `6:7 at external.http.headers["Bad Header"]: header name "Bad Header" cannot be sent: it holds " "; expected an HTTP token: letters, digits and !#$%&'*+-.^_\`|~, no spaces or colons (e.g. X-Api-Key)`,
      `7:7 at external.http.headers["{{ env.NAME }}"]: header name "{{ env.NAME }}" cannot be sent: it holds "{" (templates are filled in values only); expected an HTTP token: letters, digits and !#$%&'*+-.^_\`|~, no spaces or colons (e.g. X-Api-Key)`,
      '8:16 at external.http.headers.X-Break: a header value cannot hold a line break (LF, character 5 of the value): expected one line of text',
      '9:14 at external.http.headers.X-Nul: a header value cannot hold a NUL character (character 2 of the value): expected one line of text',
      '10:16 at external.http.headers.X-Arrow: a header value cannot hold U+2192 (character 12 of the value): headers carry Latin-1 characters only (up to U+00FF); percent-encode it',
      '11:15 at external.http.headers.X-Late: a header value cannot hold a line break (CR, character 19 of the value): expected one line of text',
    ]);
    // A value that is a secret is never echoed.
    const secret = errorOf('id: x\nexternal: {http: {url: "http://h/", headers: {Authorization: "Bearer sk-live-0123456789\\n"}}}\n');
    expect(secret.message).toContain('a header value cannot hold a line break (LF, character 26 of the value)');
    expect(secret.message).not.toContain('sk-live');
  });

  it('check llm parameters of the external model per provider', () => {
    const error = errorOf('id: x\nexternal: {command: [a], llm: {provider: openai, model: m, parameters: {temprature: 0}}}\n');
    expect(error.path).toBe('external.llm.parameters.temprature');
  });
});
