import { redactSecrets, scrubSecretValues, secretUrlValues } from '../config/redact.js';
import { VERSION } from '../config/version.js';
import type { Model } from './model/model.js';
import { sentParameters } from './providers/parameter-specs.js';
import { resolvedPermission, type Permission } from './permissions/permission.js';
import type { DeltaRevision } from './revision/delta.js';
import type { ExternalHttpSpec, ExternalSpec, Revision } from './revision/types.js';
import type { Tool } from './tools/tool.js';
import { buildAgent } from './revision/build-agent.js';

/** Name and version recorded as the harness in every resolved config. */
export const HARNESS = `agentcheck/${VERSION}`;
/** Model calls per invoke when the build does not say. */
export const DEFAULT_MAX_TURNS = 10;

/** What actually ran, after delta, defaults and overlay (docs/spans.md). */
export interface ResolvedConfig {
  harness: string;
  provider: string;
  model: string;
  parameters: Record<string, unknown>;
  max_turns: number;
  permissions_mode: string;
  tools: Array<{ name: string; permission: Permission }>;
  /** The agent's `commands.allow`: the run_command programs that need no approval. */
  commands: { allow: string[] };
  skills: string[];
  skills_delivery: 'inline' | 'on_demand';
  /** Skills listed somewhere but not delivered, with why (e.g. a duplicate name). */
  skills_not_delivered: Array<{ name: string; source: string; reason: string }>;
  revision_id: string;
  revision_hash: string;
  delta_hash: string | null;
  /** An external agent (docs/external-agents.md): how it ran; env values and headers are named, never shown. */
  external?: ResolvedExternal;
}

/** The resolved config's record of an external agent. */
export interface ResolvedExternal {
  kind: 'command' | 'http';
  command?: string[];
  /** The http engine's url, credentials in it scrubbed, `{port}` as written. */
  url?: string;
  /** The command of a server agentcheck starts for an http engine. */
  start?: string[];
  /** Names of the variables given in `external.env` (values are not recorded). */
  env: string[];
  /** Names of the headers sent to the http engine (values are not recorded). */
  headers: string[];
  timeout_ms: number;
}

export interface ResolveConfigOptions {
  model: Pick<Model, 'provider' | 'modelId'>;
  tools: readonly Tool[];
  skills?: string[];
  skillsDelivery?: 'inline' | 'on_demand';
  skillsNotDelivered?: Array<{ name: string; source: string; reason: string }>;
}

/** Computes the resolved config of a revision as it will run. Secret-named parameters are redacted. */
export function resolveConfig(revision: Revision | DeltaRevision, options: ResolveConfigOptions): ResolvedConfig {
  const agent = buildAgent(revision.build);
  const mode = agent.permissions?.mode ?? 'allow';
  return {
    harness: HARNESS,
    provider: options.model.provider,
    model: options.model.modelId,
    // What the provider sends: the given parameters plus its own defaults (Anthropic's max_tokens).
    parameters: redactSecrets(sentParameters(options.model.provider, agent.llm?.parameters ?? {})),
    max_turns: agent.max_turns ?? DEFAULT_MAX_TURNS,
    permissions_mode: mode,
    // An external agent's tools run in its own process: the ones it declares are listed, as allowed.
    tools: revision.build.external
      ? (revision.build.external.tools ?? []).map((tool) => ({ name: tool.name, permission: 'allow' as const }))
      : options.tools.map((tool) => ({ name: tool.name, permission: resolvedPermission(tool, agent) })),
    commands: { allow: [...(agent.commands?.allow ?? [])] },
    skills: options.skills ?? [],
    skills_delivery: options.skillsDelivery ?? 'inline',
    skills_not_delivered: options.skillsNotDelivered ?? [],
    revision_id: revision.build.id,
    revision_hash: revision.hash,
    delta_hash: 'deltaHash' in revision ? revision.deltaHash : null,
    ...(revision.build.external ? { external: resolveExternal(revision.build.external) } : {}),
  };
}

/** Time limit of an external turn when the build does not say. */
export const DEFAULT_EXTERNAL_TIMEOUT_MS = 300_000;

function resolveExternal(external: ExternalSpec): ResolvedExternal {
  const env = Object.keys(external.env ?? {});
  const timeout_ms = external.timeout_ms ?? DEFAULT_EXTERNAL_TIMEOUT_MS;
  if (external.command) return { kind: 'command', command: external.command, env, headers: [], timeout_ms };
  const http = external.http as ExternalHttpSpec;
  const resolved: ResolvedExternal = {
    kind: 'http',
    url: scrubSecretValues(http.url, secretUrlValues(http.url)),
    env,
    headers: Object.keys(http.headers ?? {}),
    timeout_ms,
  };
  if (http.start) resolved.start = http.start.command;
  return resolved;
}
