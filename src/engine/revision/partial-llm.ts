import { formatPath, type PathSegments } from '../../config/source.js';
import type { AgentBuild } from './types.js';

/**
 * What a delta that sets part of `agent.llm` (`{parameters: ...}`) on a build without one is
 * told instead of "missing required key": the delta merges onto the build as written, not onto
 * the default model it would otherwise use (docs/formats.md, Delta).
 */
export function partialLlmProblem(base: AgentBuild, path: PathSegments, expected: string): string | undefined {
  if (base.agent?.llm !== undefined || formatPath(path) !== 'agent.llm') return undefined;
  if (!/^missing required key "(provider|model)"$/.test(expected)) return undefined;
  return 'the build has no agent.llm (it uses the default model, scripted/scripted), so a delta that sets part of agent.llm must give agent.llm.provider and agent.llm.model too';
}
