import type { AgentBuild } from './types.js';

/**
 * Why a run's `inputs.context` would be ignored by every one of `builds`, or undefined. Only a
 * flow (its initial context, docs/workflows.md) and an external agent (sent to it with the
 * messages, docs/external-agents.md) read it; an agent on its own never does, so a context with
 * keys given to it is refused rather than dropped without a word. An empty one says nothing.
 */
export function unreadContextProblem(context: unknown, builds: readonly AgentBuild[]): string | undefined {
  if (context === null || typeof context !== 'object' || Object.keys(context).length === 0) return undefined;
  if (!builds.length || builds.some((build) => build.flow !== undefined || build.external !== undefined)) return undefined;
  return (
    'a context is read only by a flow (its initial context) or an external agent (sent with the messages), and this agent build has neither, ' +
    'so it would be ignored; put what it says in the messages, or remove it'
  );
}
