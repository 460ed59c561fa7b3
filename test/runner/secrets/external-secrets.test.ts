import { describe, expect, it } from 'vitest';
import type { AgentBuild } from '../../../src/engine/revision/types.js';
import { runRedactor } from '../../../src/runner/secrets/run-secrets.js';

describe('the run redactor and external agents', () => {
  it('scrubs secret-named external.env values, secret headers as sent and url credentials; plain values stay', () => {
    const build: AgentBuild = {
      id: 'ext',
      external: {
        http: {
          url: 'https://agent.test/invoke?api_key=url-key-0123456789',
          headers: { Authorization: 'Bearer {{ env.PLAIN_NAME }}', 'X-Team': '{{ env.TEAM }}' },
        },
        env: { SERVICE_TOKEN: 'tok-literal-0123456789', DB_PASSWORD: 'pw-literal-0123456789', AZURE_KEY: 'azure-literal-0123', MODE: 'plain-mode-value' },
      },
    };
    const redactor = runRedactor({ PLAIN_NAME: 'bearer-from-env-0123', TEAM: 'core-platform-team' }, [build]);
    const text = 'tok-literal-0123456789 pw-literal-0123456789 azure-literal-0123 bearer-from-env-0123 url-key-0123456789 plain-mode-value core-platform-team';
    expect(redactor.text(text)).toBe('[redacted] [redacted] [redacted] [redacted] [redacted] plain-mode-value core-platform-team');
  });

  it('scrubs the value a secret-named external.env variable is filled with from {{ env.NAME }}, whatever the source is called', () => {
    const build: AgentBuild = { id: 'ext', external: { command: ['a'], env: { SERVICE_TOKEN: '{{ env.CI_PLAIN }}', MODE: '{{ env.PLAIN_MODE }}' } } };
    const redactor = runRedactor({ CI_PLAIN: 'tok-from-ci-0123456', PLAIN_MODE: 'plain-mode-value' }, [build]);
    expect(redactor.text('tok-from-ci-0123456 plain-mode-value')).toBe('[redacted] plain-mode-value');
  });
});
