import { quoteCapped } from '../../config/cap-text.js';
import type { AgentSpec, PermissionMode } from '../revision/types.js';
import type { Tool } from '../tools/tool.js';

export type Permission = 'allow' | 'ask' | 'deny';

/** The permission a tool runs under: its own override, else what the agent's mode says. */
export function toolPermission(tool: Pick<Tool, 'permission' | 'readOnly'>, mode: PermissionMode): Permission {
  if (tool.permission) return tool.permission;
  switch (mode) {
    case 'allow':
      return 'allow';
    case 'deny':
      return 'deny';
    case 'ask':
      return 'ask';
    case 'allow_reads':
      return tool.readOnly ? 'allow' : 'ask';
  }
}

/**
 * The permission for one call. run_command is special (unless the tool sets its own
 * permission): programs in the agent's `commands.allow` list need no approval, any other
 * program needs approval, and mode `deny` still denies.
 */
export function callPermission(tool: Tool, args: unknown, agent: AgentSpec): Permission {
  const base = toolPermission(tool, agent.permissions?.mode ?? 'allow');
  if (!decidedByAllowList(tool, base)) return base;
  return isAllowListedCommand(tool, args, agent) ? 'allow' : 'ask';
}

/**
 * The permission of a tool's calls as a whole, for the resolved config: run_command's, when
 * `commands.allow` decides each call, is `ask` (a program the list does not name asks, in every
 * mode but deny; the list itself is the resolved config's `commands.allow`); every other tool's is
 * the same for every call.
 */
export function resolvedPermission(tool: Pick<Tool, 'permission' | 'readOnly' | 'builtin'>, agent: AgentSpec): Permission {
  const base = toolPermission(tool, agent.permissions?.mode ?? 'allow');
  return decidedByAllowList(tool, base) ? 'ask' : base;
}

/** run_command without a permission of its own, under any mode but deny, is gated per program. */
function decidedByAllowList(tool: Pick<Tool, 'permission' | 'builtin'>, base: Permission): boolean {
  return base !== 'deny' && !tool.permission && tool.builtin === 'run_command';
}

/** True for a run_command call whose program (argv[0]) is in the agent's `commands.allow` list. */
export function isAllowListedCommand(tool: Pick<Tool, 'builtin'>, args: unknown, agent: AgentSpec): boolean {
  if (tool.builtin !== 'run_command') return false;
  const argv = (args as { argv?: unknown })?.argv;
  const program = Array.isArray(argv) && typeof argv[0] === 'string' ? argv[0] : '';
  return (agent.commands?.allow ?? []).includes(program);
}

/**
 * Why a `commands.allow` entry can match no run_command call, or undefined. Entries are compared
 * with argv[0] exactly as written (docs/formats.md, Permissions): an empty one, one with spaces
 * around it, a pattern (`*`) or a command line (`git status`) never is; a path may hold a space.
 */
export function allowEntryProblem(entry: string): string | undefined {
  const expected = `expected a program name or path (an entry is compared with run_command's argv[0] as written), got ${quoteCapped(entry)}`;
  const program = entry.trim();
  if (program === '') return `${expected}, which no call's argv[0] is`;
  if (program !== entry) return `${expected}; no argv[0] has spaces around it: write ${quoteCapped(program)}`;
  // No globbing: `*` would be taken for every program, yet it is compared as a name like any other.
  if (entry.includes('*')) return `${expected}; allow lists program names exactly; * matches nothing (list each program: ls, cat, git)`;
  if (/\s/.test(entry) && !entry.includes('/')) {
    const first = quoteCapped(entry.split(/\s+/)[0]);
    return `${expected}; commands.allow lists programs (argv[0]), not command lines, so this entry matches no call (${first} would allow every call of ${first}, whatever its arguments)`;
  }
  return undefined;
}
