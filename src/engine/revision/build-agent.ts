import type { AgentBuild, AgentSpec } from './types.js';

/**
 * The agent a build describes: its `agent`, or for an external build (docs/external-agents.md)
 * the name, llm and max_turns it declares. An external agent's tools are its own: it has none here.
 */
export function buildAgent(build: AgentBuild): AgentSpec {
  if (build.agent) return build.agent;
  const external = build.external ?? {};
  const agent: AgentSpec = { name: external.name ?? build.id };
  if (external.llm) agent.llm = external.llm;
  if (external.max_turns !== undefined) agent.max_turns = external.max_turns;
  return agent;
}
