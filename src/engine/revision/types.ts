import type { SkillEntry } from '../../skills/skill-entry.js';
import type { RegisteredProvider } from '../providers/registry.js';

/** Types of an agent build (docs/formats.md, docs/workflows.md, docs/skills.md): what a committed revision holds. */

/** A registered provider's name (src/engine/providers/registry.ts). */
export type ProviderName = RegisteredProvider;
export type PermissionMode = 'allow' | 'ask' | 'deny' | 'allow_reads';
export type ToolPermission = 'allow' | 'ask' | 'deny';
export type BuiltinName =
  | 'read_file'
  | 'write_file'
  | 'edit_file'
  | 'list_dir'
  | 'find_files'
  | 'grep'
  | 'run_command'
  | 'echo';

export type JsonSchema = Record<string, unknown>;

export interface LlmSpec {
  provider: ProviderName;
  model: string;
  parameters?: Record<string, unknown>;
  /** Base URL for HTTP providers; falls back to the provider's env var (OPENAI_BASE_URL, ...), then its default. */
  base_url?: string;
  /** Time limit of one HTTP attempt (request and body) in ms; default 120,000. */
  timeout_ms?: number;
  /** Retries after the first attempt on 429, 5xx, network errors and timeouts; default 4. */
  max_retries?: number;
}

export interface HttpSpec {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  timeout_ms?: number;
}

export interface CommandSpec {
  argv: string[];
  timeout_ms?: number;
  allow_env?: string[];
  max_output_bytes?: number;
  /** Refuse a templated argument whose value starts with `-` (option injection), unless after a literal `--`. */
  refuse_option_args?: boolean;
}

export interface PlanToolCall {
  name: string;
  arguments?: Record<string, unknown>;
  returns?: string;
  items?: unknown;
  each_item?: { item_name: string; tools: PlanToolCall[] };
  condition?: unknown;
  if?: { tools: PlanToolCall[] };
  else?: { tools: PlanToolCall[] };
}

export interface PlanSpec {
  constants?: Record<string, unknown>;
  steps: Array<{ tools: PlanToolCall[] }>;
  max_iterations?: number;
}

export interface ChainStepSpec {
  id?: string;
  tool: string;
  inputs?: Record<string, unknown>;
  on_success?: { map_outputs?: Record<string, string>; next?: string };
  on_failure?: {
    action?: 'stop' | 'retry' | 'continue';
    max_retries?: number;
    backoff_ms?: number;
    continue_on_max_retries?: boolean;
    next?: string;
  };
}

export interface ChainSpec {
  name?: string;
  steps: ChainStepSpec[];
  max_steps?: number;
}

export interface ToolSpec {
  name: string;
  description?: string;
  parameters?: JsonSchema;
  read_only?: boolean;
  permission?: ToolPermission;
  builtin?: BuiltinName;
  http?: HttpSpec;
  command?: CommandSpec;
  chain?: ChainSpec;
  plan?: PlanSpec;
  returns?: unknown;
}

/** A skill as listed by an agent: inline, or a reference to a skill folder (defined by src/skills). */
export type { SkillEntry };

/** An MCP server whose tools the agent may call, as `mcp__<name>__<tool>` (docs/mcp.md). */
export interface McpServerSpec {
  name: string;
  /** argv of the server process (stdio); it runs in the folder of the agent build file. */
  command: string[];
  /** Environment variables passed on besides PATH. */
  env_allow?: string[];
  /** The server's tool names offered to the model; default all. */
  tools?: string[];
  permission?: ToolPermission;
  /** Per-call time limit; default 30,000 ms. */
  timeout_ms?: number;
  /** Time limit for start-up (initialize and tools/list); default 30,000 ms. */
  start_timeout_ms?: number;
}

export interface AgentSpec {
  name: string;
  instructions?: string;
  llm?: LlmSpec;
  max_turns?: number;
  permissions?: { mode: PermissionMode };
  commands?: { allow: string[] };
  tools?: ToolSpec[];
  mcps?: McpServerSpec[];
  skills?: SkillEntry[];
}

/** An IOKey: `target:sub.keys` or the long form. */
export type IOKey = string | { from?: string; as?: string; optional?: boolean; literal?: unknown };

export type ComponentType = 'agent' | 'deterministic_step' | 'human_input' | 'end' | 'plan';

export interface ComponentSpec {
  name: string;
  type: ComponentType;
  tool_name?: string;
  inputs?: IOKey[];
  toolset?: string[];
  instructions?: string;
  prompt?: string;
  max_turns?: number;
  plan?: PlanSpec;
}

export interface RouterSpec {
  from: string;
  to?: string;
  condition?: { input: IOKey; routes: Record<string, string> };
}

export interface FlowSpec {
  name?: string;
  entry_point: string;
  components: ComponentSpec[];
  routers: RouterSpec[];
}

/** A tool an external agent declares, so the names a scenario uses can be checked (docs/external-agents.md). */
export interface ExternalToolSpec {
  name: string;
  description?: string;
  parameters?: JsonSchema;
}

/** A server agentcheck starts per run for an http engine (docs/external-agents.md, "Starting the server"). */
export interface ExternalServerStart {
  command: string[];
  /** Path polled until it answers (any HTTP status below 500); default `/`. */
  ready_path?: string;
  /** How long to wait for it to be ready; default 30,000 ms. */
  timeout_ms?: number;
}

/** An http engine: agentcheck POSTs `{messages, context, delta}` to `url`. */
export interface ExternalHttpSpec {
  url: string;
  /** Request headers; values may read the environment as `{{ env.NAME }}`. */
  headers?: Record<string, string>;
  start?: ExternalServerStart;
  /** Where the run's spans can be read (`{trace_id}` placeholder; docs/external-agents.md). */
  spans_url?: string;
}

/** An agent that runs outside the engine: a command or an http endpoint (docs/external-agents.md). */
export interface ExternalSpec {
  /** The agent's name in spans (`invoke_agent {name}`); default the build id. */
  name?: string;
  /** The model the bridge answers from; default {provider: scripted, model: scripted}. */
  llm?: LlmSpec;
  /** Model calls through the bridge per run; default 10. */
  max_turns?: number;
  /** The agent's tools, declared so scenario names are checked; without it names are not checked. */
  tools?: ExternalToolSpec[];
  /** The agent's own settings, passed to it as they are (a delta may change them): any object. */
  config?: Record<string, unknown>;
  /** argv of the agent process, started per run in the workspace. */
  command?: string[];
  http?: ExternalHttpSpec;
  /** Environment variables for the process (and the started server), besides PATH and the bridge's. */
  env?: Record<string, string>;
  /** Time limit of the whole external turn (the process, or the http request); default 300,000 ms. */
  timeout_ms?: number;
}

/**
 * A committed revision of an agent build: an `agent` (with an optional `flow`) that the engine
 * runs, or an `external` agent.
 */
export interface AgentBuild {
  id: string;
  revision?: number;
  agent?: AgentSpec;
  flow?: FlowSpec;
  external?: ExternalSpec;
}

/** A loaded revision: the build plus where it came from (for relative paths and hashes). */
export interface Revision {
  build: AgentBuild;
  /** File the build was loaded from, or `<inline>`. */
  source: string;
  /** sha256 of the canonical JSON of the build, before any delta. */
  hash: string;
}

/** A test_run / variant delta (docs/formats.md, Delta). */
export interface Delta {
  set?: Record<string, unknown>;
  remove?: string[];
}
