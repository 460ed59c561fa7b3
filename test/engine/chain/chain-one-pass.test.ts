import { describe, expect, it } from 'vitest';
import { ConfigErrors } from '../../../src/config/errors.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';

describe('a chain with several problems', () => {
  it('reports them all in one pass', () => {
    let caught: unknown;
    try {
      revisionFromValue({
        id: 'c',
        agent: {
          name: 'C',
          tools: [
            { name: 'ok', description: 'o', parameters: { type: 'object' }, returns: 1 },
            {
              name: 'flow',
              description: 'f',
              parameters: { type: 'object' },
              chain: {
                steps: [
                  { id: 'end', tool: 'ok' },
                  { tool: 'ab', on_failure: { action: 'stop', max_retries: 3 } },
                  { tool: 'ok', on_success: { next: 'nowhere' } },
                ],
              },
            },
          ],
        },
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigErrors);
    const text = (caught as ConfigErrors).errors.map((error) => error.message).join('\n');
    expect((caught as ConfigErrors).errors).toHaveLength(4);
    for (const part of ['step id "end" is reserved', 'unknown tool "ab"', '"max_retries" does not apply', '"next" names no step: "nowhere"'])
      expect(text).toContain(part);
  });
});
