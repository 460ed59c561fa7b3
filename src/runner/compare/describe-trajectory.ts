import type { TrajectoryChange } from './trajectory-changes.js';

/** `+finish x1, -lookup x2` or `reordered: lookup, finish -> finish, lookup`, for the terminal. */
export function describeTrajectoryChange(change: TrajectoryChange): string {
  const parts = [...change.added.map((c) => `+${c.tool} x${c.count}`), ...change.removed.map((c) => `-${c.tool} x${c.count}`)];
  if (change.reordered) parts.push(`reordered: ${change.base_order.join(', ')} -> ${change.head_order.join(', ')}`);
  return parts.join(', ');
}
