import { setOwn } from '../../config/own-key.js';
import type { ProviderEntry } from '../../engine/providers/provider-entry.js';
import { PROVIDERS } from '../../engine/providers/registry.js';
import type { MatchKey, RecordedRequest } from './cassette.js';

/**
 * The normalised request replay compares (docs/cassettes.md): method and stripped URL, then
 * for a model call (a JSON object body with a string `model` or an array transcript) its model,
 * system, messages, tools (every registered provider's shape alike as `{name, description,
 * parameters}`) and the remaining fields as `parameters`; any other body is compared whole. A
 * provider whose body names the system prompt and transcript differently (Responses:
 * `instructions`, `input`) has them under `system` and `messages` too.
 */
export function matchKey(request: RecordedRequest): MatchKey {
  const key: MatchKey = { method: request.method.toUpperCase(), url: request.url };
  const body = request.body;
  const fields = isRecord(body) ? bodyFields(body) : DEFAULT_FIELDS;
  if (!isModelCall(body, fields)) {
    if (body !== undefined) key.body = body;
    return key;
  }
  if ('model' in body) key.model = body.model;
  if (fields.system in body) key.system = body[fields.system];
  if (fields.messages in body) key.messages = body[fields.messages];
  if ('tools' in body) key.tools = Array.isArray(body.tools) ? body.tools.map(normaliseTool) : body.tools;
  const owned = new Set(['model', 'tools', fields.system, fields.messages]);
  const parameters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) if (!owned.has(name)) setOwn(parameters, name, value);
  key.parameters = parameters;
  return key;
}

type BodyFields = { readonly system: string; readonly messages: string };
const DEFAULT_FIELDS: BodyFields = { system: 'system', messages: 'messages' };

/** The registered provider's names for system prompt and transcript when the body uses them (an array transcript), else the usual ones. */
function bodyFields(body: Record<string, unknown>): BodyFields {
  if (Array.isArray(body.messages)) return DEFAULT_FIELDS;
  for (const entry of Object.values(PROVIDERS) as ProviderEntry[]) {
    if (entry.matchFields && Array.isArray(body[entry.matchFields.messages])) return entry.matchFields;
  }
  return DEFAULT_FIELDS;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function isModelCall(body: unknown, fields: BodyFields): body is Record<string, unknown> {
  if (!isRecord(body)) return false;
  return typeof body.model === 'string' || Array.isArray(body[fields.messages]);
}

/**
 * Each provider's tool shape (its registry entry's `matchTool`) becomes `{name, description,
 * parameters}`, so a drift names `tools[0].description` whichever provider sent it.
 */
function normaliseTool(tool: unknown): unknown {
  if (!tool || typeof tool !== 'object' || Array.isArray(tool)) return tool;
  const record = tool as Record<string, unknown>;
  for (const entry of Object.values(PROVIDERS) as ProviderEntry[]) {
    const neutral = entry.matchTool?.(record);
    if (neutral) return neutral;
  }
  return record;
}
