/**
 * The most shards a suite may be split into: far above any CI's parallelism, and low enough that
 * merge's list of missing shards stays small (docs/ci.md).
 */
export const MAX_SHARDS = 10_000;
