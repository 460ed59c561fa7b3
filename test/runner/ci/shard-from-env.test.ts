import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { shardFromEnv } from '../../../src/runner/ci/shard-from-env.js';

describe('shardFromEnv', () => {
  it('reads GitLab parallel jobs (1-based) and Kubernetes indexed Jobs (0-based)', () => {
    expect(shardFromEnv({ CI_NODE_INDEX: '2', CI_NODE_TOTAL: '4' })).toEqual({ index: 2, total: 4, source: 'CI_NODE_INDEX/CI_NODE_TOTAL' });
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '0', AGENTCHECK_SHARD_TOTAL: '3' })).toEqual({
      index: 1,
      total: 3,
      source: 'JOB_COMPLETION_INDEX/AGENTCHECK_SHARD_TOTAL',
    });
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '2', AGENTCHECK_SHARD_TOTAL: '3' })).toMatchObject({ index: 3, total: 3 });
  });

  it('is null outside a parallel job', () => {
    expect(shardFromEnv({})).toBeNull();
    expect(shardFromEnv({ CI_NODE_INDEX: '', CI_NODE_TOTAL: '' })).toBeNull();
    expect(shardFromEnv({ CI_NODE_TOTAL: '1' })).toBeNull();
  });

  it('refuses values that make no shard, naming the variable', () => {
    expect(() => shardFromEnv({ CI_NODE_INDEX: '5', CI_NODE_TOTAL: '4' })).toThrow(
      /CI_NODE_INDEX: expected a whole number from 1 to 4 \(with CI_NODE_TOTAL=4\), got "5"/,
    );
    expect(() => shardFromEnv({ CI_NODE_INDEX: '1' })).toThrow(/CI_NODE_TOTAL: is not set, but CI_NODE_INDEX is \(1\); set both/);
    expect(() => shardFromEnv({ JOB_COMPLETION_INDEX: '3', AGENTCHECK_SHARD_TOTAL: '3' })).toThrow(/JOB_COMPLETION_INDEX: expected a whole number from 0 to 2/);
    expect(() => shardFromEnv({ JOB_COMPLETION_INDEX: '0' })).toThrow(ConfigError);
    expect(() => shardFromEnv({ JOB_COMPLETION_INDEX: '0' })).toThrow(/AGENTCHECK_SHARD_TOTAL is not/);
    expect(() => shardFromEnv({ CI_NODE_TOTAL: '4' })).toThrow(/CI_NODE_INDEX: is not set, but CI_NODE_TOTAL is \(4\); set both/);
    // Whole numbers as written, and a bounded count (merge lists the missing shards).
    expect(() => shardFromEnv({ CI_NODE_INDEX: '1', CI_NODE_TOTAL: '99999999999999999999' })).toThrow(
      /CI_NODE_TOTAL: expected a whole number from 1 to 10000, got "99999999999999999999"/,
    );
    expect(() => shardFromEnv({ CI_NODE_INDEX: '1', CI_NODE_TOTAL: '2.0' })).toThrow(/CI_NODE_TOTAL: expected a whole number/);
    expect(() => shardFromEnv({ CI_NODE_INDEX: '1e0', CI_NODE_TOTAL: '2' })).toThrow(/CI_NODE_INDEX: expected a whole number from 1 to 2/);
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '1', AGENTCHECK_SHARD_TOTAL: ' 3 ' })).toMatchObject({ index: 2, total: 3 });
  });
});
