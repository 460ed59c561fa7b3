import { ConfigError } from '../../config/errors.js';
import { MAX_SHARDS } from './max-shards.js';

/** A shard of a suite: `index` of `total`, 1-based. */
export interface Shard {
  index: number;
  total: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The shard a CI's own parallelism asks for, when `--shard` is not given: GitLab's `parallel:`
 * (CI_NODE_INDEX, 1-based, and CI_NODE_TOTAL), or a Kubernetes indexed Job (JOB_COMPLETION_INDEX,
 * 0-based, with AGENTCHECK_SHARD_TOTAL set to the Job's `completions`, which Kubernetes does not
 * expose). Null when none is set; a ConfigError for values that do not make a shard.
 */
export function shardFromEnv(env: Env): (Shard & { source: string }) | null {
  const gitlabIndex = env.CI_NODE_INDEX?.trim();
  const gitlabTotal = env.CI_NODE_TOTAL?.trim();
  if (gitlabIndex || gitlabTotal) {
    // GitLab sets both only for `parallel:` jobs; a lone CI_NODE_TOTAL of 1 is a plain job.
    if (!gitlabIndex && gitlabTotal === '1') return null;
    if (!gitlabIndex)
      throw new ConfigError(
        { file: 'CI_NODE_INDEX' },
        `is not set, but CI_NODE_TOTAL is (${gitlabTotal}); set both (GitLab's parallel: does), or pass --shard I/N`,
      );
    if (!gitlabTotal)
      throw new ConfigError(
        { file: 'CI_NODE_TOTAL' },
        `is not set, but CI_NODE_INDEX is (${gitlabIndex}); set both (GitLab's parallel: does), or pass --shard I/N`,
      );
    return { ...shard(gitlabIndex, gitlabTotal, 0, 'CI_NODE_INDEX', 'CI_NODE_TOTAL'), source: 'CI_NODE_INDEX/CI_NODE_TOTAL' };
  }
  const k8sIndex = env.JOB_COMPLETION_INDEX?.trim();
  if (k8sIndex) {
    if (!env.AGENTCHECK_SHARD_TOTAL?.trim()) {
      throw new ConfigError(
        { file: 'JOB_COMPLETION_INDEX' },
        "is set (a Kubernetes indexed Job), but AGENTCHECK_SHARD_TOTAL is not; set it to the Job's completions, or pass --shard I/N",
      );
    }
    return {
      ...shard(k8sIndex, env.AGENTCHECK_SHARD_TOTAL, 1, 'JOB_COMPLETION_INDEX', 'AGENTCHECK_SHARD_TOTAL'),
      source: 'JOB_COMPLETION_INDEX/AGENTCHECK_SHARD_TOTAL',
    };
  }
  return null;
}

/** `offset` turns a 0-based index into agentcheck's 1-based one. */
function shard(givenIndex: string | undefined, givenTotal: string | undefined, offset: number, indexName: string, totalName: string): Shard {
  const [rawIndex, rawTotal] = [givenIndex?.trim(), givenTotal?.trim()];
  const total = Number(rawTotal);
  if (!rawTotal || !/^\d+$/.test(rawTotal) || total < 1 || total > MAX_SHARDS)
    throw new ConfigError({ file: totalName }, `expected a whole number from 1 to ${MAX_SHARDS}, got "${rawTotal ?? ''}"`);
  const index = Number(rawIndex) + offset;
  if (!rawIndex || !/^\d+$/.test(rawIndex) || index < 1 || index > total) {
    throw new ConfigError(
      { file: indexName },
      `expected a whole number from ${1 - offset} to ${total - offset} (with ${totalName}=${total}), got "${rawIndex ?? ''}"`,
    );
  }
  return { index, total };
}
