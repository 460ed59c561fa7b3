import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import type { AgentBuild } from '../../../src/engine/revision/types.js';
import { referToSecrets, restoreSecrets } from '../../../src/runner/resume/checkpoint-secrets.js';

const TOKEN = 'ghp_abc/def+ghi"jkl';
const BUILD: AgentBuild = { id: 'b', agent: { name: 'B', tools: [] } } as AgentBuild;
const FILE = '/runs/r1.checkpoint.json';

/** What a checkpoint holds: the token raw, URL-encoded, JSON-escaped, as a key, and text that looks like a marker. */
function saved() {
  return {
    messages: [
      { role: 'user', content: `use ${TOKEN} please` },
      { role: 'assistant', content: '', tool_calls: [{ input: { url: `https://x.test/?q=${encodeURIComponent(TOKEN)}`, raw: JSON.stringify({ t: TOKEN }) } }] },
      { role: 'user', content: 'a literal [secret:GITHUB_TOKEN] and [secret::x] stay as they are' },
    ],
    keyed: { [TOKEN]: 1, ['__proto__']: { polluted: true } },
    count: 3,
    none: null,
  };
}

describe('checkpoint secrets', () => {
  it("writes each form of a secret variable's value as a marker naming it, and reads it back exactly", () => {
    const original = JSON.parse(JSON.stringify(saved())) as ReturnType<typeof saved>;
    const env = { GITHUB_TOKEN: TOKEN, HOME: '/home/me', SHORT_TOKEN: 'abc' };
    const { value, secrets } = referToSecrets(original, env, BUILD);
    const text = JSON.stringify(value);
    for (const form of [TOKEN, encodeURIComponent(TOKEN), JSON.stringify(TOKEN).slice(1, -1)]) expect(text).not.toContain(form);
    expect(value.messages[0].content).toBe('use [secret:GITHUB_TOKEN] please');
    expect(value.messages[1].tool_calls?.[0].input.url).toBe('https://x.test/?q=[secret:GITHUB_TOKEN:uri]');
    expect(value.messages[1].tool_calls?.[0].input.raw).toBe('{"t":"[secret:GITHUB_TOKEN:json]"}');
    expect(value.messages[2].content).toBe('a literal [secret::GITHUB_TOKEN] and [secret:::x] stay as they are');
    expect(Object.keys(secrets)).toEqual(['GITHUB_TOKEN']);
    expect(secrets.GITHUB_TOKEN.scrypt).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(secrets)).not.toContain(TOKEN);

    const back = restoreSecrets(JSON.parse(text), secrets, env, FILE);
    expect(back).toEqual(original);
    expect(Object.getPrototypeOf(back.keyed)).toBe(Object.prototype);
  });

  it('marks the other URL spellings too (lower-case escapes, + for a space) and reads each back as it was written', () => {
    const password = 'abc def/ghi12345';
    const page = 'a=abc+def%2Fghi12345 b=abc%20def%2fghi12345 c=abc+def%2fghi12345 d=abc%20def%2Fghi12345';
    const env = { DB_PASSWORD: password };
    const { value, secrets } = referToSecrets({ page }, env, BUILD);
    expect(value.page).toBe(
      'a=[secret:DB_PASSWORD:uri-plus] b=[secret:DB_PASSWORD:uri-lower] c=[secret:DB_PASSWORD:uri-plus-lower] d=[secret:DB_PASSWORD:uri]',
    );
    expect(restoreSecrets(value, secrets, env, FILE)).toEqual({ page });
    // URLSearchParams also escapes what encodeURIComponent keeps (`!'()~`).
    const form = new URLSearchParams({ v: "it's (a) secret!" }).toString().slice(2);
    const marked = referToSecrets({ form }, { MY_SECRET: "it's (a) secret!" }, BUILD);
    expect(marked.value.form).toBe('[secret:MY_SECRET:form]');
    expect(restoreSecrets(marked.value, marked.secrets, { MY_SECRET: "it's (a) secret!" }, FILE)).toEqual({ form });
  });

  it("refers to a variable whose name does not look secret when the build sends its value as a key (an MCP server's header)", () => {
    const build = {
      id: 'h',
      agent: {
        name: 'H',
        mcps: [{ name: 'svc', url: 'https://mcp.test/mcp', headers: { Authorization: 'Bearer {{ env.SERVICE_CRED_VALUE }}' } }],
      },
    } as unknown as AgentBuild;
    const env = { SERVICE_CRED_VALUE: 'opaque-value-123' };
    const { value, secrets } = referToSecrets({ said: 'Bearer opaque-value-123' }, env, build);
    expect(value.said).toBe('Bearer [secret:SERVICE_CRED_VALUE]');
    expect(restoreSecrets(value, secrets, env, FILE)).toEqual({ said: 'Bearer opaque-value-123' });
  });

  it('refuses to read it back without the variable, with another value, or with a marker it does not list', () => {
    const { value, secrets } = referToSecrets({ said: `key ${TOKEN}` }, { GITHUB_TOKEN: TOKEN }, BUILD);
    const fails = (env: Record<string, string>, from: unknown = value) => {
      try {
        restoreSecrets(from, secrets, env, FILE);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return [(error as ConfigError).code, (error as ConfigError).message];
      }
      throw new Error('expected a ConfigError');
    };
    expect(fails({})).toEqual([
      'CHECKPOINT_SECRET_MISSING',
      `${FILE} at secrets.GITHUB_TOKEN: the paused run holds the value of the secret variable GITHUB_TOKEN, which is not set here; resume where GITHUB_TOKEN is set as it was when the run paused`,
    ]);
    expect(fails({ GITHUB_TOKEN: 'ghp_another_value_1' })[0]).toBe('CHECKPOINT_SECRET_CHANGED');
    expect(fails({ GITHUB_TOKEN: 'ghp_another_value_1' })[1]).toContain('GITHUB_TOKEN has another value than when the run paused');
    expect(fails({ GITHUB_TOKEN: TOKEN }, { list: ['[secret:OTHER_TOKEN]'] })[1]).toBe(
      `${FILE} at list[0]: expected a secret marker the file lists under secrets ([secret:GITHUB_TOKEN], [secret:GITHUB_TOKEN:uri], [secret:GITHUB_TOKEN:json], [secret:GITHUB_TOKEN:uri-lower]), got "[secret:OTHER_TOKEN]"`,
    );
    expect(() => restoreSecrets(value, { GITHUB_TOKEN: { salt: 'x' } }, { GITHUB_TOKEN: TOKEN }, FILE)).toThrow(
      `${FILE} at secrets.GITHUB_TOKEN: expected {salt, scrypt} (scrypt: 64 hex digits)`,
    );
  });
});
