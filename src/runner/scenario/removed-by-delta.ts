import type { Locator } from '../../config/assert-format.js';
import { buildTools, listedTools } from '../../engine/revision/build-tools.js';
import type { AgentBuild } from '../../engine/revision/types.js';

/** An unknown tool name in a message: `... no tool of the agent: "x"`, `"x" names no tool of the agent` or `the script calls "x", which the agent does not offer`. */
const UNKNOWN_TOOL =
  /no tool of the agent: ("(?:[^"\\]|\\.)*")|^("(?:[^"\\]|\\.)*") names no tool of the agent|^the script calls ("(?:[^"\\]|\\.)*"), which the agent does not offer/;

/**
 * `locate`, adding to a tool name the build lacks that `delta` (how the caller names it: `the
 * --delta`, `the scenario's delta`) removed or renamed it: the names are held to the build after
 * the delta, while the build file the user reads still lists the tool.
 */
export function removedByDelta(base: AgentBuild | undefined, applied: AgentBuild | undefined, locate: Locator, delta: string): Locator {
  if (!base || !applied) return locate;
  const before = new Set(listedTools([buildTools(base)], { loadSkill: false }));
  const after = new Set(listedTools([buildTools(applied)], { loadSkill: false }));
  return (path, expected, atKey) => {
    const quoted = UNKNOWN_TOOL.exec(expected);
    const name = quoted ? (JSON.parse(quoted[1] ?? quoted[2] ?? quoted[3]) as string) : undefined;
    const removed = name !== undefined && before.has(name) && !after.has(name);
    return locate(path, removed ? `${expected} (${delta} removes or renames it: names are held to the build after it)` : expected, atKey);
  };
}
