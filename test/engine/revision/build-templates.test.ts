import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { loadAgentBuild, revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configErrorOf } from '../../helpers/config-error.js';

function loadError(build: Record<string, unknown>): ConfigError {
  return configErrorOf(() => revisionFromValue({ id: 'b', ...build }));
}

const withTools = (...tools: unknown[]) => ({ agent: { name: 'B', tools } });

describe('http urls are checked when the build loads', () => {
  it('a url without templates that is not an absolute URL, located in the file', () => {
    const dir = tempDir({
      'agent.yaml': 'id: b\nagent:\n  name: B\n  tools:\n    - {name: ok, returns: 1}\n    - name: fetch\n      http: {url: "not a url"}\n',
    });
    const error = configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml')));
    expect(error.path).toBe('agent.tools[1].http.url');
    expect(error.line).toBe(7);
    expect(error.expected).toBe('expected an absolute URL such as "https://api.example.com/items", got "not a url"');
  });

  it("reports a problem in each of a tool's url, headers and body in one pass", () => {
    const error = loadError(
      withTools({
        name: 'f',
        parameters: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false },
        http: { url: 'https://x.test/{{ args.idd }}', headers: { A: '{{ arg.id }}' }, body: { b: '{{ args.nope }}' } },
      }),
    );
    expect((error as ConfigErrors).errors.map((one) => one.path)).toEqual([
      'agent.tools[0].http.url',
      'agent.tools[0].http.headers.A',
      'agent.tools[0].http.body.b',
    ]);
  });

  it('a header fetch could never send, at its key or value, beside a template problem of another header', () => {
    const error = loadError(
      withTools({
        name: 'f',
        http: { url: 'https://x.test/', headers: { 'Bad Header': 'v', A: '{{ arg.id }}', 'X-Query': 'q={{ args.q }}\n', 'X-Fine': '{{ args.q }} caf\u00e9' } },
      }),
    ) as ConfigErrors;
    expect(error.errors.map((one) => `${one.path}: ${one.expected}`)).toEqual([
      expect.stringMatching(/^agent\.tools\[0\]\.http\.headers\.A: unknown template "\{\{ arg\.id \}\}"/),
      expect.stringMatching(/^agent\.tools\[0\]\.http\.headers\["Bad Header"\]: header name "Bad Header" cannot be sent: it holds " "/),
      'agent.tools[0].http.headers.X-Query: a header value cannot hold a line break (LF, character 15 of the value): expected one line of text',
    ]);
  });

  it('a relative path and a non-http scheme', () => {
    expect(loadError(withTools({ name: 'f', http: { url: '/items' } })).path).toBe('agent.tools[0].http.url');
    expect(loadError(withTools({ name: 'f', http: { url: 'ftp://files.test/x' } })).expected).toContain('expected an http:// or https:// URL');
  });

  it('a templated url is checked with its templates filled in', () => {
    const error = loadError(withTools({ name: 'f', http: { url: 'items/{{ args.id }}' } }));
    expect(error.path).toBe('agent.tools[0].http.url');
    expect(error.expected).toContain('not a URL even with its templates filled in');
  });

  it('templated urls that can be valid still load', () => {
    for (const url of [
      'https://shop.test/orders/{{ args.id }}?q={{ args.q }}',
      'https://{{ args.host }}/x',
      'http://127.0.0.1:{{ args.port }}/x',
      'https://{{ args.sub }}.example.com/',
      'http://[{{ args.ip6 }}]:8080/',
      '{{ args.url }}',
      '{{ args.base }}/items',
    ]) {
      expect(() => revisionFromValue({ id: 'b', ...withTools({ name: 'f', http: { url } }) }), url).not.toThrow();
    }
  });
});

describe('unclosed templates are load errors', () => {
  it('in an http url, header and body', () => {
    expect(loadError(withTools({ name: 'f', http: { url: 'https://x.test/{{ args.id' } })).expected).toBe(
      'unclosed template "{{ args.id": expected "}}" to close "{{"',
    );
    const header = loadError(withTools({ name: 'f', http: { url: 'https://x.test/', headers: { Authorization: 'Bearer {{ args.token' } } }));
    expect(header.path).toBe('agent.tools[0].http.headers.Authorization');
    const body = loadError(
      withTools({ name: 'f', http: { method: 'POST', url: 'https://x.test/', body: { items: [{ id: '{{ args.id }}' }, { id: '{{args.other' }] } } }),
    );
    expect(body.path).toBe('agent.tools[0].http.body.items[1].id');
  });

  it('in a command argv element', () => {
    const error = loadError(withTools({ name: 'c', command: { argv: ['echo', '{{ args.text }}', '--to={{ args.who'] } }));
    expect(error.path).toBe('agent.tools[0].command.argv[2]');
    expect(error.expected).toContain('unclosed template "{{ args.who"');
  });

  it('in plan arguments, items, conditions and constants', () => {
    const plan = (tools: unknown[], constants?: unknown) => withTools({ name: 'p', plan: { ...(constants ? { constants } : {}), steps: [{ tools }] } });
    expect(loadError(plan([{ name: 'echo', arguments: { text: 'hi {{ who' } }])).path).toBe('agent.tools[0].plan.steps[0].tools[0].arguments.text');
    expect(loadError(plan([{ name: 'for_each', items: '{{ files', each_item: { item_name: 'f', tools: [] } }])).path).toBe(
      'agent.tools[0].plan.steps[0].tools[0].items',
    );
    expect(loadError(plan([{ name: 'if_else', condition: '{{ ok', if: { tools: [{ name: 'echo', arguments: { text: '{{ok}' } }] } }])).path).toBe(
      'agent.tools[0].plan.steps[0].tools[0].condition',
    );
    expect(loadError(plan([{ name: 'if_else', condition: '{{ ok }}', if: { tools: [{ name: 'echo', arguments: { text: '{{ ok }' } }] } }])).path).toBe(
      'agent.tools[0].plan.steps[0].tools[0].if.tools[0].arguments.text',
    );
    expect(loadError(plan([], { prefix: '{{ limit' })).path).toBe('agent.tools[0].plan.constants.prefix');
  });

  it('in a flow plan component', () => {
    const error = loadError({
      agent: { name: 'B' },
      flow: {
        entry_point: 'p',
        components: [{ name: 'p', type: 'plan', plan: { steps: [{ tools: [{ name: 'echo', arguments: { text: '{{ goal' } }] }] } }],
        routers: [{ from: 'p', to: 'end' }],
      },
    });
    expect(error.path).toBe('flow.components[0].plan.steps[0].tools[0].arguments.text');
  });

  it('in chain inputs', () => {
    const error = loadError(withTools({ name: 'c', chain: { steps: [{ tool: 'echo', inputs: { text: 'x {{ state.a }} {{ state.b' } }] } }));
    expect(error.path).toBe('agent.tools[0].chain.steps[0].inputs.text');
  });

  it('text that merely holds braces is not a template', () => {
    for (const text of ['{{"a": 1}}', '{"a": {"b": 1}}', '{{', '{{- raw', '{{ {"a": 1} }}']) {
      expect(
        () => revisionFromValue({ id: 'b', ...withTools({ name: 'f', http: { method: 'POST', url: 'https://x.test/', body: text } }) }),
        text,
      ).not.toThrow();
    }
  });
});

describe('malformed and unknown templates are load errors (they would fail or be sent literally at run time)', () => {
  const tool = (http: Record<string, unknown>, parameters?: unknown) =>
    withTools({ name: 'search', ...(parameters ? { parameters } : {}), http: { method: 'POST', url: 'https://x.test/', ...http } });
  const closed = { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } };

  it('a malformed template is refused where it is written', () => {
    const error = loadError(tool({ body: { q: '{{ args.q!uery }}' } }));
    expect(error.path).toBe('agent.tools[0].http.body.q');
    expect(error.expected).toContain('malformed template "{{ args.q!uery }}"');
    expect(loadError(tool({ url: 'https://x.test/{{ args.a b }}' })).path).toBe('agent.tools[0].http.url');
  });

  it('a template other than args is refused: env outside headers, or a bare name', () => {
    const onlyArgs =
      "a tool's templates read its call arguments only, as {{ args.<name> }}; only an http tool's header values may also read the environment, as {{ env.NAME }}";
    const inBody = loadError(tool({ body: { token: '{{ env.TOKEN }}' } }));
    expect([inBody.path, inBody.expected]).toEqual(['agent.tools[0].http.body.token', `unknown template "{{ env.TOKEN }}": ${onlyArgs}`]);
    const inUrl = loadError(tool({ url: 'https://x.test/items?key={{ env.API_KEY }}' }));
    expect([inUrl.path, inUrl.expected]).toEqual(['agent.tools[0].http.url', `unknown template "{{ env.API_KEY }}": ${onlyArgs}`]);
    const inArgv = loadError(withTools({ name: 'run', command: { argv: ['curl', '-H', 'Authorization: {{ env.TOKEN }}'] } }));
    expect([inArgv.path, inArgv.expected]).toEqual(['agent.tools[0].command.argv[2]', `unknown template "{{ env.TOKEN }}": ${onlyArgs}`]);
    expect(loadError(tool({ body: 'a {{ b }} c' })).expected).toContain('unknown template "{{ b }}"');
    expect(loadError(withTools({ name: 'run', command: { argv: ['echo', '{{ arg.x }}'] } })).expected).toContain('did you mean "args"?');
  });

  it("an http tool's header values may read the environment as {{ env.NAME }}, beside its arguments", () => {
    const headers = { Authorization: 'Bearer {{ env.GITHUB_TOKEN }}', 'X-Page': '{{ args.query }}/{{ env.TEAM_1 }}' };
    expect(() => revisionFromValue({ id: 'b', ...tool({ headers }, closed) })).not.toThrow();
    // One variable by its portable name, as an MCP server's header reads it; any other scope is refused.
    const nested = loadError(tool({ headers: { A: '{{ env.A.B }}' } }));
    expect([nested.path, nested.expected]).toEqual([
      'agent.tools[0].http.headers.A',
      'template "{{ env.A.B }}" names no environment variable: expected {{ env.NAME }}, NAME of letters, digits and _ (not starting with a digit), with nothing after it',
    ]);
    expect(loadError(tool({ headers: { A: '{{ env.MY-TOKEN }}' } })).expected).toContain('template "{{ env.MY-TOKEN }}" names no environment variable');
    expect(loadError(tool({ headers: { A: '{{ env }}' } })).expected).toContain('template "{{ env }}" names no environment variable');
    expect(loadError(tool({ headers: { A: '{{ en.TOKEN }}' } })).expected).toBe(
      'unknown template "{{ en.TOKEN }}": an http tool\'s header values read its call arguments, as {{ args.<name> }}, and the environment, as {{ env.NAME }}; did you mean "env"?',
    );
  });

  it('args.<name> must be a parameter when the parameters list their properties', () => {
    const error = loadError(tool({ body: { q: '{{ args.qurey }}' } }, closed));
    expect(error.expected).toBe('template "{{ args.qurey }}" names no parameter of the tool; expected one of: query, limit; did you mean "query"?');
    expect(() => revisionFromValue({ id: 'b', ...tool({ body: { q: '{{ args.query }}', n: '{{ args.limit }}' } }, closed) })).not.toThrow();
    expect(() => revisionFromValue({ id: 'b', ...tool({ body: '{{ args.anything }}' }) })).not.toThrow();
  });

  it('an empty template is refused, saying what is wrong and what is expected; Go and Jinja forms stay literal', () => {
    const expected = 'expected {{ name }} or {{ name.path }} (letters, digits, _, $ and -, segments joined by dots)';
    for (const text of ['A {{ }}', 'A {{}}']) {
      const error = loadError(tool({ body: { a: text } }));
      expect(error.path, text).toBe('agent.tools[0].http.body.a');
      expect(error.expected, text).toBe(`malformed template "${text.slice(2)}": the name is missing; ${expected}`);
    }
    const chain = withTools({ name: 'c', chain: { steps: [{ tool: 'echo', inputs: { text: 'A {{ }}' } }] } });
    expect(loadError(chain).path).toBe('agent.tools[0].chain.steps[0].inputs.text');
    // Another program's templates, passed on as written.
    for (const text of ['{{ .State.Running }}', '{{.x}}', '{{ "a" }}', "{{ '{{' }}"]) {
      expect(() => revisionFromValue({ id: 'b', ...tool({ body: { a: text } }) }), text).not.toThrow();
    }
    expect(() =>
      revisionFromValue({ id: 'b', ...withTools({ name: 'run', command: { argv: ['docker', 'inspect', '-f', '{{.State.Running}}'] } }) }),
    ).not.toThrow();
  });

  it('plans and chains refuse malformed templates too', () => {
    const chain = { name: 'c', chain: { steps: [{ tool: 'echo', inputs: { text: '{{ input.te xt }}' } }] } };
    expect(loadError(withTools(chain)).path).toBe('agent.tools[0].chain.steps[0].inputs.text');
  });
});

describe('every problem of a build in one pass', () => {
  it('problems in several tools, a chain and a skill are all reported, each located', () => {
    const dir = tempDir({
      'agent.yaml': `id: b
agent:
  name: B
  tools:
    - {name: a, http: {url: "not a url"}}
    - {name: b, http: {url: "https://x.test/", body: "{{ env.TOKEN }}"}}
    - {name: c, chain: {steps: [{tool: nowhere}]}}
  skills:
    - {name: Bad Name, description: d, body: b}
`,
    });
    const error = configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml')));
    expect(error).toBeInstanceOf(ConfigErrors);
    expect((error as ConfigErrors).errors.map((e) => [e.line, e.path])).toEqual([
      [5, 'agent.tools[0].http.url'],
      [6, 'agent.tools[1].http.body'],
      [7, 'agent.tools[2].chain.steps[0].tool'],
      [9, 'agent.skills[0].name'],
    ]);
  });

  it('every bad template of a command argv, an http url, headers and body, not only the first of each', () => {
    const dir = tempDir({
      'agent.yaml': `id: b
agent:
  name: B
  tools:
    - name: j
      parameters: {type: object, properties: {q: {type: string}}}
      command:
        argv: [ls, "{{ args.zz }}", "{{ b }}", "{{ args.qq }}"]
    - name: h
      parameters: {type: object, properties: {q: {type: string}}}
      http:
        url: "https://x.test/{{ args.q }}/{{ env.T }}/{{ args.r }}"
        headers: {X-A: "{{ args.aa }}", X-B: "{{ args.bb }}"}
        body: {a: "{{ args.cc }}", b: "{{ env.X }}"}
`,
    });
    const error = configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml'))) as ConfigErrors;
    expect(error.errors.map((e) => [e.line, e.path, e.expected.slice(0, 24)])).toEqual([
      [8, 'agent.tools[0].command.argv[1]', 'template "{{ args.zz }}"'],
      [8, 'agent.tools[0].command.argv[2]', 'unknown template "{{ b }'],
      [8, 'agent.tools[0].command.argv[3]', 'template "{{ args.qq }}"'],
      [12, 'agent.tools[1].http.url', 'unknown template "{{ env'],
      [12, 'agent.tools[1].http.url', 'template "{{ args.r }}" '],
      [13, 'agent.tools[1].http.headers.X-A', 'template "{{ args.aa }}"'],
      [13, 'agent.tools[1].http.headers.X-B', 'template "{{ args.bb }}"'],
      [14, 'agent.tools[1].http.body.a', 'template "{{ args.cc }}"'],
      [14, 'agent.tools[1].http.body.b', 'unknown template "{{ env'],
    ]);
  });
});

describe('the | path filter of http urls', () => {
  it('is accepted in an http url, with its argument checked like any template', () => {
    const tool = {
      name: 'f',
      parameters: { type: 'object', properties: { repo: { type: 'string' } } },
      http: { url: 'https://api.test/repos/{{ args.repo | path }}/issues' },
    };
    expect(() => revisionFromValue({ id: 'b', ...withTools(tool) })).not.toThrow();
    const typo = loadError(withTools({ ...tool, http: { url: 'https://api.test/repos/{{ args.rpo | path }}' } }));
    expect(typo.expected).toContain('template "{{ args.rpo }}" names no parameter of the tool');
  });

  it('refuses an unknown filter in a url with a suggestion, and any filter elsewhere', () => {
    const unknown = loadError(withTools({ name: 'f', http: { url: 'https://api.test/repos/{{ args.repo | paht }}' } }));
    expect(unknown.path).toBe('agent.tools[0].http.url');
    expect(unknown.expected).toBe('unknown filter "paht" in "{{ args.repo | paht }}": expected | path; did you mean "path"?');
    const header = loadError(withTools({ name: 'f', http: { url: 'https://api.test/', headers: { 'x-repo': '{{ args.repo | path }}' } } }));
    expect(header.path).toBe('agent.tools[0].http.headers.x-repo');
    expect(header.expected).toContain("is not allowed here: only an http tool's url takes one");
  });

  it('refuses | path outside the path (whole URL, scheme or host, query), located in the file', () => {
    const dir = tempDir({
      'agent.yaml': 'id: b\nagent:\n  name: B\n  tools:\n    - name: fetch\n      http: {url: "{{ args.target | path }}"}\n',
    });
    const whole = configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml')));
    expect(whole).toBeInstanceOf(ConfigError);
    expect([whole.file, whole.line, whole.path]).toEqual([join(dir, 'agent.yaml'), 6, 'agent.tools[0].http.url']);
    expect(whole.expected).toBe(
      '"{{ args.target | path }}" stands for the whole URL, but "| path" belongs inside the path (after "https://host/"), where it keeps "/" between segments; ' +
        'expected it in the path, as in "https://api.example.com/repos/{{ args.target | path }}/issues", or {{ args.target }} without the filter',
    );
    for (const [url, part] of [
      ['{{ args.base | path }}/items', "the URL's scheme or host"],
      ['https://{{ args.host | path }}/items', "the URL's scheme or host"],
      ['https://api.test{{ args.rest | path }}', "the URL's scheme or host"],
      ['https://api.test/{{ args.id }}?q={{ args.q | path }}', "the URL's query or fragment"],
    ]) {
      const error = loadError(withTools({ name: 'f', http: { url } }));
      expect(error.path, url).toBe('agent.tools[0].http.url');
      expect(error.expected, url).toContain(`stands for ${part}, but "| path" belongs inside the path`);
    }
    for (const url of [
      'https://api.test/{{ args.p | path }}',
      '{{ args.scheme }}://api.test/{{ args.p | path }}',
      'https://{{ args.host }}/r/{{ args.p | path }}/x',
    ]) {
      expect(() => revisionFromValue({ id: 'b', ...withTools({ name: 'f', http: { url } }) }), url).not.toThrow();
    }
  });

  it('refuses a literal "." or ".." path segment in a url', () => {
    const error = loadError(withTools({ name: 'f', http: { url: 'https://api.test/a/../{{ args.id }}' } }));
    expect(error.expected).toBe('URL "https://api.test/a/../{{ args.id }}" has a ".." path segment, which URL parsers remove; write the path it stands for');
  });

  it('quotes a refused url without its credentials, as the base_url error does', () => {
    const cases = [
      ['ftp://api.test/x?token=FTPTOKEN12345678', 'expected an http:// or https:// URL, got "ftp://api.test/x?token=[redacted]" (scheme "ftp")'],
      [
        'https://u:PASSWORD12345678@api.test/./x',
        'URL "https://u:[redacted]@api.test/./x" has a "." path segment, which URL parsers remove; write the path it stands for',
      ],
      [
        'https://api.test/./x?api_key=DOTKEY1234567890',
        'URL "https://api.test/./x?api_key=[redacted]" has a "." path segment, which URL parsers remove; write the path it stands for',
      ],
      ['api.test/x?sig=NOSCHEMESIG12345', 'expected an absolute URL such as "https://api.example.com/items", got "api.test/x?sig=[redacted]"'],
    ];
    for (const [url, expected] of cases) expect(loadError(withTools({ name: 'f', http: { url } })).expected, url).toBe(expected);
  });
});

describe('an llm base_url', () => {
  it('is an http(s) URL, refused at load otherwise (every model call would fail)', () => {
    const error = loadError({ agent: { name: 'B', llm: { provider: 'openai', model: 'm', base_url: 'notaurl' } } });
    expect(error.path).toBe('agent.llm.base_url');
    expect(error.expected).toBe(
      'expected an http:// or https:// URL such as https://api.openai.com/v1, without user:password@ (fetch refuses it; the key goes in the provider\'s API key variable), got string "notaurl"',
    );
    // A URL with credentials in it can never be sent: refused too.
    const withCredentials = loadError({ agent: { name: 'B', llm: { provider: 'openai', model: 'm', base_url: 'http://user:pass@127.0.0.1:9/v1' } } });
    expect(withCredentials.path).toBe('agent.llm.base_url');
    for (const url of ['http://127.0.0.1:9/v1', 'https://api.test', 'https://api.test/v1?key=a@b']) {
      expect(() => revisionFromValue({ id: 'b', agent: { name: 'B', llm: { provider: 'openai', model: 'm', base_url: url } } }), url).not.toThrow();
    }
  });
});

describe('a tool named load_skill', () => {
  it("is refused: it is the skill loader's name, and with on_demand skills two tools would share it", () => {
    const error = loadError({ agent: { name: 'B', tools: [{ name: 'load_skill', returns: { ok: true } }] } });
    expect(error.path).toBe('agent.tools[0].name');
    expect(error.expected).toContain('"load_skill" is the tool agentcheck offers for skills delivered on demand');
  });
});

describe('a tool named for_each or if_else', () => {
  it('is refused: in a plan those names always mean the system tools, so no plan could call it', () => {
    for (const name of ['for_each', 'if_else']) {
      const error = loadError({
        agent: {
          name: 'B',
          tools: [
            { name: 'ok', returns: 1 },
            { name, description: 'mine', returns: { ok: true } },
          ],
        },
      });
      expect(error.path).toBe('agent.tools[1].name');
      expect(error.expected).toBe(
        `"${name}" is a STEP plan keyword (docs/workflows.md, STEP plans): a plan calling "${name}" always runs the system tool, never this tool; name this tool something else`,
      );
    }
  });
});
