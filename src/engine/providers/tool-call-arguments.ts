import type { ModelToolCall } from '../model/model.js';

/**
 * A tool call's `arguments` as the OpenAI APIs send them (a JSON string) parsed into `args`;
 * text that is not JSON is kept with `argsError` (a tool error the model sees, docs/formats.md).
 */
export function parseToolArguments(raw: unknown): Pick<ModelToolCall, 'args' | 'argsError'> {
  if (typeof raw !== 'string') return { args: raw ?? {} };
  // Some compatible servers send "" for a call without arguments; that is an empty object, not junk.
  if (raw.trim() === '') return { args: {} };
  try {
    return { args: JSON.parse(raw) };
  } catch (error) {
    return { args: raw, argsError: `the arguments are not valid JSON (${(error as Error).message})` };
  }
}
