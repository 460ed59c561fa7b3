import type { SkillEntry } from '../../skills/skill-entry.js';
import type { AgentBuild, AgentSpec, ComponentSpec, LlmSpec, ToolSpec } from './build-format.generated.js';
import type { ImplementationKey } from './tool-schema.js';

/**
 * Types of an agent build (docs/formats.md, docs/workflows.md, docs/skills.md): what a committed
 * revision holds. The format's types are generated from its JSON Schema (schema.ts) into
 * build-format.generated.ts (docs/architecture.md, Formats); this file re-exports them and adds
 * the names the engine uses for their parts.
 */
export type {
  AgentBuild,
  AgentSpec,
  ChainSpec,
  ChainStepSpec,
  CommandSpec,
  ComponentSpec,
  Delta,
  ExternalHttpSpec,
  ExternalServerStart,
  ExternalSpec,
  ExternalToolSpec,
  FlowSpec,
  HttpSpec,
  IOKey,
  LlmSpec,
  McpServerSpec,
  PlanBlock,
  PlanSpec,
  PlanToolCall,
  RouterSpec,
  ToolSpec,
} from './build-format.generated.js';

/** A registered provider's name (src/engine/providers/registry.ts). */
export type ProviderName = LlmSpec['provider'];
export type PermissionMode = NonNullable<AgentSpec['permissions']>['mode'];
export type ToolPermission = NonNullable<ToolSpec['permission']>;
export type BuiltinName = NonNullable<ToolSpec['builtin']>;
export type ComponentType = ComponentSpec['type'];

export type JsonSchema = Record<string, unknown>;

/**
 * A tool spec whose implementation key `K` is set: what a tool kind's factory gets (the schema
 * leaves every key optional; validation ensures exactly one is given).
 */
export type ToolSpecOf<K extends ImplementationKey> = ToolSpec & Required<Pick<ToolSpec, K>>;

/** A skill as listed by an agent: inline, or a reference to a skill folder (defined by src/skills). */
export type { SkillEntry };

/** A loaded revision: the build plus where it came from (for relative paths and hashes). */
export interface Revision {
  build: AgentBuild;
  /** File the build was loaded from, or `<inline>`. */
  source: string;
  /** sha256 of the canonical JSON of the build, before any delta. */
  hash: string;
}
