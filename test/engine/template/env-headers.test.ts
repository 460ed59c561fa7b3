import { describe, expect, it } from 'vitest';
import { RunError } from '../../../src/config/errors.js';
import { fillEnvHeaders } from '../../../src/engine/template/env-headers.js';

const site = { code: 'MCP_START_FAILED', where: (header: string) => `agent.mcps[name=web].headers.${header}` };

function failure(fn: () => unknown): RunError {
  try {
    fn();
  } catch (error) {
    return error as RunError;
  }
  throw new Error('expected a RunError');
}

describe('fillEnvHeaders', () => {
  it('fills {{ env.NAME }} from the environment', () => {
    expect(fillEnvHeaders({ Authorization: 'Bearer {{ env.API_TOKEN }}', 'X-Mode': 'test' }, { API_TOKEN: 'tok-123' }, site)).toEqual({
      Authorization: 'Bearer tok-123',
      'X-Mode': 'test',
    });
  });

  it('keeps a header named __proto__ (as YAML and JSON give it) as a header', () => {
    const filled = fillEnvHeaders(JSON.parse('{"__proto__": "{{ env.MODE }}", "X-Mode": "test"}') as Record<string, string>, { MODE: 'a' }, site);
    expect(JSON.stringify(filled)).toBe('{"__proto__":"a","X-Mode":"test"}');
  });

  it('names an unset variable and suggests a close name, never listing the environment', () => {
    const env = { API_TOKEN: 'x', HOME: '/home/me', OTHER_SECRET_NAME: 'y', PATH: '/bin', UNDEFINED_ONE: undefined };
    const error = failure(() => fillEnvHeaders({ Authorization: 'Bearer {{ env.API_TOKN }}' }, env, site));
    expect(error).toBeInstanceOf(RunError);
    expect(error.code).toBe('MCP_START_FAILED');
    expect(error.message).toBe(
      'agent.mcps[name=web].headers.Authorization needs the environment variable API_TOKN, which is not set; did you mean "API_TOKEN"?',
    );
    for (const name of ['HOME', 'OTHER_SECRET_NAME', 'PATH']) expect(error.message).not.toContain(name);
  });

  it('says nothing more when no set name is close, and names every unset variable of a header', () => {
    const env = { HOME: '/home/me', PATH: '/bin', API_KEY: 'k' };
    expect(failure(() => fillEnvHeaders({ 'X-Token': '{{ env.WEB_MCP_TOKEN }}' }, env, site)).message).toBe(
      'agent.mcps[name=web].headers.X-Token needs the environment variable WEB_MCP_TOKEN, which is not set',
    );
    // A variable set to undefined is unset; both are named, the close one with its suggestion.
    expect(failure(() => fillEnvHeaders({ 'X-Both': '{{ env.API_KY }}:{{ env.ZZZ_NONE }}' }, { ...env, ZZZ_NONE: undefined }, site)).message).toBe(
      'agent.mcps[name=web].headers.X-Both needs the environment variables API_KY, ZZZ_NONE, which are not set; did you mean "API_KEY" (for API_KY)?',
    );
  });

  it('refuses a filled value fetch could not send, naming the header and its variables, never the value', () => {
    const env = { API_TOKEN: 'tok-secret-123\nInjected: yes', LATIN: 'caf\u00e9', ARROW: '\u2192' };
    const broken = failure(() => fillEnvHeaders({ Authorization: 'Bearer {{ env.API_TOKEN }}' }, env, site));
    expect(broken).toBeInstanceOf(RunError);
    expect(broken.code).toBe('MCP_START_FAILED');
    expect(broken.message).toBe(
      'agent.mcps[name=web].headers.Authorization (filled from env.API_TOKEN) cannot be sent: a header value cannot hold a line break (LF, character 22 of the value): expected one line of text',
    );
    expect(broken.message).not.toContain('tok-secret-123');
    // A site may give such values a code of their own; Latin-1 is sent as is.
    const arrow = failure(() => fillEnvHeaders({ 'X-Both': '{{ env.LATIN }} {{ env.ARROW }}' }, env, { ...site, unsendableCode: 'EXTERNAL_AGENT_FAILED' }));
    expect(arrow.code).toBe('EXTERNAL_AGENT_FAILED');
    expect(arrow.message).toBe(
      'agent.mcps[name=web].headers.X-Both (filled from env.LATIN, env.ARROW) cannot be sent: a header value cannot hold U+2192 (character 6 of the value): headers carry Latin-1 characters only (up to U+00FF); percent-encode it',
    );
    expect(fillEnvHeaders({ 'X-Latin': '{{ env.LATIN }}' }, env, site)).toEqual({ 'X-Latin': 'caf\u00e9' });
  });
});
