import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

describe('the content-capture switch (built CLI)', () => {
  it('a value other than true or false is invalid input before anything runs', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
    const result = await runCli(['run', '.', '--out', 'out'], dir, { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'bogus' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: expected true or false, got "bogus"');
    expect(existsSync(join(dir, 'out/report.json'))).toBe(false);
  });
});
