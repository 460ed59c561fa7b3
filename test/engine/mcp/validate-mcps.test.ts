import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { SourceDocument } from '../../../src/config/source.js';
import { parseAgentBuild, revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { configErrorOf } from '../../helpers/config-error.js';

const agent = (extra: Record<string, unknown>) => ({ id: 'a', agent: { name: 'A', ...extra } });

function problem(value: unknown): string {
  try {
    revisionFromValue(value, 'agent.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  return 'valid';
}

describe('agent.mcps validation', () => {
  it('accepts a full entry', () => {
    expect(
      problem(
        agent({
          mcps: [
            {
              name: 'fs',
              command: ['node', 'server.js', '.'],
              env_allow: ['HOME'],
              tools: ['read_text_file', 't'.repeat(55)],
              permission: 'ask',
              timeout_ms: 1000,
              start_timeout_ms: 5000,
            },
          ],
        }),
      ),
    ).toBe('valid');
  });

  it.each([
    [{ mcps: [{ name: 'fs', command: [] }] }, /agent\.mcps\[0\]\.command: .*at least 1/],
    [{ mcps: [{ name: 'fs', command: [''] }] }, /agent\.mcps\[0\]\.command\[0\]/],
    [{ mcps: [{ name: 'f s', command: ['x'] }] }, /agent\.mcps\[0\]\.name/],
    [{ mcps: [{ name: 'my__fs', command: ['x'] }] }, /may not contain "__"/],
    // mcp__n___list_notes would read as server "n" and tool "_list_notes".
    [
      { mcps: [{ name: 'n_', command: ['x'] }] },
      /agent\.mcps\[0\]\.name: MCP server name "n_" may not end with "_" \(in mcp__n___<tool> it would read as the start of the tool's name\); expected a name such as "n"/,
    ],
    [
      {
        mcps: [
          { name: 'fs', command: ['x'] },
          { name: 'fs', command: ['y'] },
        ],
      },
      /agent\.mcps\[1\]\.name: duplicate MCP server name "fs" \(already used by agent\.mcps\[0\]\)/,
    ],
    [{ mcps: [{ name: 'fs', command: ['x'], tools: ['a', 'a'] }] }, /agent\.mcps\[0\]\.tools\[1\]: "a" is listed twice/],
    [
      { mcps: [{ name: 'fs', command: ['x'], tools: ['a.b', 'c', 'a_b'] }] },
      /agent\.mcps\[0\]\.tools\[2\]: "a_b" would be offered as "mcp__fs__a_b", as "a\.b" \(agent\.mcps\[0\]\.tools\[0\]\) would .*; list one of them only/,
    ],
    [
      { mcps: [{ name: 'fs', command: ['x'], tools: ['t'.repeat(57)] }] },
      /agent\.mcps\[0\]\.tools\[0\]: "t{57}" would be offered as "mcp__fs__t{57}", 66 characters \(tool names are at most 64\); shorten the server's name or leave the tool out/,
    ],
    [{ mcps: [{ name: 'fs', command: ['x'], allow_env: ['HOME'] }] }, /unknown key "allow_env"/],
    [{ tools: [{ name: 'mcp__fs__read', returns: 1 }] }, /reserved for the tools of agent\.mcps/],
    [{ mcps: [{ name: 'fs' }] }, /agent\.mcps\[0\]: expected "command" \(argv of a stdio server\) or "url"/],
    [{ mcps: [{ name: 'fs', command: ['x'], url: 'http://127.0.0.1:1/mcp' }] }, /agent\.mcps\[0\]\.url: give either "command" .* or "url" .*, not both/],
    [{ mcps: [{ name: 'fs', url: 'ws://127.0.0.1:1/mcp' }] }, /agent\.mcps\[0\]\.url: expected an absolute http:\/\/ or https:\/\/ URL/],
    [{ mcps: [{ name: 'fs', url: 'mcp' }] }, /agent\.mcps\[0\]\.url: expected an absolute/],
    [{ mcps: [{ name: 'fs', command: ['x'], headers: { a: 'b' } }] }, /agent\.mcps\[0\]\.headers: "headers" are sent to a "url" server/],
    [{ mcps: [{ name: 'fs', url: 'https://mcp.test/', env_allow: ['HOME'] }] }, /agent\.mcps\[0\]\.env_allow: .*a "url" server has none/],
    [
      { mcps: [{ name: 'fs', url: 'https://mcp.test/', headers: { Authorization: 'Bearer {{ args.token }}' } }] },
      /agent\.mcps\[0\]\.headers\.Authorization: unknown template "\{\{ args\.token \}\}": .*\{\{ env\.NAME \}\}/,
    ],
    [{ mcps: [{ name: 'fs', url: 'https://mcp.test/', headers: { Authorization: 'Bearer {{ env.TOKEN' } }] }, /unclosed template/],
    [
      { mcps: [{ name: 'fs', url: 'https://mcp.test/', headers: { 'Bad Header': 'v' } }] },
      /agent\.mcps\[0\]\.headers\["Bad Header"\]: header name "Bad Header" cannot be sent: it holds " "/,
    ],
    [
      { mcps: [{ name: 'fs', url: 'https://mcp.test/', headers: { Authorization: 'Bearer {{ env.TOKEN }}\r\n' } }] },
      /agent\.mcps\[0\]\.headers\.Authorization: a header value cannot hold a line break \(CR, character 23 of the value\)/,
    ],
  ])('rejects %j', (extra, message) => {
    expect(problem(agent(extra))).toMatch(message);
  });

  it('accepts a Streamable HTTP entry with env-templated headers', () => {
    expect(
      problem(
        agent({
          mcps: [
            {
              name: 'gh',
              url: 'https://api.githubcopilot.test/mcp/',
              headers: { Authorization: 'Bearer {{ env.GITHUB_TOKEN }}', 'X-Team': 'core' },
              tools: ['get_me'],
              timeout_ms: 1000,
            },
          ],
        }),
      ),
    ).toBe('valid');
  });

  it('refuses credentials in a url, pointing to headers, without quoting the password', () => {
    for (const url of ['https://ada:s3cret-pass-123@mcp.test/mcp?team=core', 'http://s3cret-pass-123@127.0.0.1:3000/mcp']) {
      const error = configErrorOf(() => revisionFromValue(agent({ mcps: [{ name: 'gh', url }] }), 'agent.yaml'));
      expect(error.path).toBe('agent.mcps[0].url');
      expect(error.expected).toContain('the URL carries credentials');
      expect(error.expected).toContain('send them in "headers" with a secret reference instead, as headers: {Authorization: "Bearer {{ env.MCP_TOKEN }}"}');
      expect(error.message).not.toContain('s3cret-pass-123');
    }
    // Nor when the URL is refused for another reason.
    const other = configErrorOf(() =>
      revisionFromValue(agent({ mcps: [{ name: 'gh', url: 'ws://ada:s3cret-pass-123@mcp.test/?token=tok-abcdefgh123' }] }), 'agent.yaml'),
    );
    expect(other.expected).toContain('expected an absolute http:// or https:// URL');
    expect(other.message).not.toContain('s3cret-pass-123');
    expect(other.message).not.toContain('tok-abcdefgh123');
  });

  it('reports every bad entry in one pass, each at its path and line', () => {
    const doc = SourceDocument.parse(
      'agent.yaml',
      [
        'id: a',
        'agent:',
        '  name: A',
        '  tools: [{name: mcp__x__y, returns: 1}]',
        '  mcps:',
        '    - {name: ok, url: "https://mcp.test/"}',
        '    - {name: a__b, command: [x]}',
        '    - {name: gh, url: "https://u:pw-123456789@mcp.test/"}',
        '    - {name: ok, url: "ftp://mcp.test/", env_allow: [HOME], headers: {X: "{{ args.t }}"}}',
        '    - {name: fs, command: [x], tools: [a, a]}',
        '',
      ].join('\n'),
    );
    const error = configErrorOf(() => parseAgentBuild(doc));
    expect(error).toBeInstanceOf(ConfigErrors);
    expect((error as ConfigErrors).errors.map((e) => [e.path, e.line])).toEqual([
      ['agent.tools[0].name', 4],
      ['agent.mcps[1].name', 7],
      ['agent.mcps[2].url', 8],
      ['agent.mcps[3].name', 9],
      // In the order they are written on the line (url before env_allow).
      ['agent.mcps[3].url', 9],
      ['agent.mcps[3].env_allow', 9],
      ['agent.mcps[3].headers.X', 9],
      ['agent.mcps[4].tools[1]', 10],
    ]);
    expect(error.message).not.toContain('pw-123456789');
  });

  it("reports the entries' problems beside a problem of a tool, and a sound entry beside a malformed one", () => {
    const doc = SourceDocument.parse(
      'agent.yaml',
      [
        'id: a',
        'agent:',
        '  name: A',
        '  tools: [{name: lookup, retruns: 1}]',
        '  mcps:',
        '    - {name: srv}',
        '    - {name: a__b, url: "https://mcp.test/"}',
        '    - {name: c, command: []}',
        '',
      ].join('\n'),
    );
    const error = configErrorOf(() => parseAgentBuild(doc));
    expect((error as ConfigErrors).errors.map((e) => e.path)).toEqual([
      'agent.tools[0].retruns',
      'agent.mcps[0]',
      'agent.mcps[1].name',
      'agent.mcps[2].command',
    ]);
  });

  it('a bad key of an entry hides neither its other problems nor a duplicate of its name in another entry', () => {
    const doc = SourceDocument.parse(
      'agent.yaml',
      [
        'id: a',
        'agent:',
        '  name: A',
        '  mcps:',
        '    - {name: fs, command: [node, s.js], headers: {A: b}, timeout_ms: 0}',
        '    - {name: fs, command: [node, s.js]}',
        '',
      ].join('\n'),
    );
    const error = configErrorOf(() => parseAgentBuild(doc)) as ConfigErrors;
    expect(error.errors.map((e) => `${e.line}:${e.column} ${e.path}: ${e.expected}`)).toEqual([
      '5:41 agent.mcps[0].headers: "headers" are sent to a "url" server; a "command" server gets env_allow instead',
      '5:70 agent.mcps[0].timeout_ms: expected a number >= 1, got number 0',
      '6:14 agent.mcps[1].name: duplicate MCP server name "fs" (already used by agent.mcps[0])',
    ]);
  });

  it('locates a problem in a file by line and column', () => {
    const doc = SourceDocument.parse('agent.yaml', 'id: a\nagent:\n  name: A\n  mcps:\n    - name: fs\n      command: []\n');
    expect(() => parseAgentBuild(doc)).toThrow(/agent\.yaml:6:\d+ at agent\.mcps\[0\]\.command/);
  });
});
