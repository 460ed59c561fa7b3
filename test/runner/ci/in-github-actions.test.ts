import { describe, expect, it } from 'vitest';
import { githubSwitchWarning, inGithubActions } from '../../../src/runner/ci/in-github-actions.js';

describe('AGENTCHECK_GITHUB', () => {
  it('keeps annotations on for on, true, 1, yes or empty, silently', () => {
    for (const on of ['on', 'TRUE', '1', ' yes ', '', undefined]) {
      const env = { GITHUB_ACTIONS: 'true', AGENTCHECK_GITHUB: on };
      expect(inGithubActions(env), String(on)).toBe(true);
      expect(githubSwitchWarning(env), String(on)).toBeUndefined();
    }
  });

  it('keeps them on for any other value, with a warning naming it and the recognised values', () => {
    const env = { GITHUB_ACTIONS: 'true', AGENTCHECK_GITHUB: 'nah' };
    expect(inGithubActions(env)).toBe(true);
    expect(githubSwitchWarning(env)).toBe(
      'agentcheck: AGENTCHECK_GITHUB="nah" is not recognised (off, false, 0 or no turn the GitHub annotations and job summary off; on, true, 1 or yes keep them on): keeping them on',
    );
    // Off GitHub Actions the variable is not read.
    expect(githubSwitchWarning({ AGENTCHECK_GITHUB: 'nah' })).toBeUndefined();
  });

  it('turns them off for off, false, 0, no (in any case), without a warning', () => {
    // As a shell, a YAML env block (false) or a habit (0, no) writes it; the CLI reads it here alone (e2e: ci-environments.test.ts).
    for (const off of ['off', 'OFF', 'false', 'False', '0', 'no', 'NO']) {
      const env = { GITHUB_ACTIONS: 'true', AGENTCHECK_GITHUB: off };
      expect(inGithubActions(env), off).toBe(false);
      expect(githubSwitchWarning(env), off).toBeUndefined();
    }
  });
});
