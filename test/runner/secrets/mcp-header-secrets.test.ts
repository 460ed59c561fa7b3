import { describe, expect, it } from 'vitest';
import type { AgentBuild } from '../../../src/engine/revision/types.js';
import { runRedactor } from '../../../src/runner/secrets/run-secrets.js';

describe('the run redactor and MCP servers over HTTP', () => {
  it('scrubs the filled-in secret headers of a url server, whatever the variable is called', () => {
    const build: AgentBuild = {
      id: 'a',
      agent: {
        name: 'A',
        mcps: [
          {
            name: 'gh',
            url: 'https://mcp.test/mcp?sig=signature-0123456789',
            headers: { Authorization: 'Bearer {{ env.PLAIN_NAME }}', 'X-Team': '{{ env.TEAM }}' },
          },
        ],
      },
    };
    const redactor = runRedactor({ PLAIN_NAME: 'ghp-0123456789abcdef', TEAM: 'core-platform-team' }, [build]);
    expect(redactor.text('echoed ghp-0123456789abcdef and signature-0123456789 for core-platform-team')).toBe(
      'echoed [redacted] and [redacted] for core-platform-team',
    );
  });
});
