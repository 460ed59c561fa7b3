import type { ProviderEntry } from '../../engine/providers/provider-entry.js';
import { PROVIDERS } from '../../engine/providers/registry.js';
import type { MatchKey, RecordedRequest } from './cassette.js';

/** Body keys a model call owns; the rest of its body is `parameters`. */
const MODEL_FIELDS = new Set(['model', 'system', 'messages', 'tools']);

/**
 * The normalised request replay compares (docs/cassettes.md): method and stripped URL, then
 * for a model call (a JSON object body with `model` or `messages`) its model, system, messages,
 * tools (every registered provider's shape alike as `{name, description, parameters}`) and the
 * remaining fields as `parameters`; any other body is compared whole.
 */
export function matchKey(request: RecordedRequest): MatchKey {
  const key: MatchKey = { method: request.method.toUpperCase(), url: request.url };
  const body = request.body;
  if (!isModelCall(body)) {
    if (body !== undefined) key.body = body;
    return key;
  }
  if ('model' in body) key.model = body.model;
  if ('system' in body) key.system = body.system;
  if ('messages' in body) key.messages = body.messages;
  if ('tools' in body) key.tools = Array.isArray(body.tools) ? body.tools.map(normaliseTool) : body.tools;
  const parameters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) if (!MODEL_FIELDS.has(name)) parameters[name] = value;
  key.parameters = parameters;
  return key;
}

function isModelCall(body: unknown): body is Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  return typeof record.model === 'string' || Array.isArray(record.messages);
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
