import type { Locator } from '../../config/assert-format.js';
import { type ConfigError, throwConfigErrors } from '../../config/errors.js';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';

/** JSON Schema of a scripted model's script (docs/formats.md, Scenario): scenario files, testRun and invoke share it. */

const scriptEntry = {
  type: 'object',
  additionalProperties: false,
  properties: {
    text: { type: 'string' },
    tool_calls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1 }, args: {}, id: { type: 'string', minLength: 1 } },
      },
    },
    usage: {
      type: 'object',
      additionalProperties: false,
      properties: { input_tokens: { type: 'integer', minimum: 0 }, output_tokens: { type: 'integer', minimum: 0 } },
    },
    delay_ms: { type: 'integer', minimum: 0, maximum: MAX_TIMER_MS },
    error: {
      type: 'object',
      required: ['message'],
      additionalProperties: false,
      properties: { message: { type: 'string' }, status: { type: 'integer' } },
    },
  },
};

/** A scripted model script: a list of responses, one per model call. */
export const scriptSchema = { type: 'array', items: scriptEntry };

/** The keys of a script entry the rules below read. */
export type ScriptEntryShape = { text?: string; error?: unknown; tool_calls?: ReadonlyArray<{ id?: string }> };

/**
 * What the schema cannot say about a script (already checked against scriptSchema): an entry
 * per call that answers something, and the
 * tool calls of one entry have distinct ids, since results are matched to calls by id.
 * `locate` takes paths relative to the script. Every entry is checked on its own, each problem
 * reported; `checked` leaves out the entries with a format problem (reported already), so one
 * entry's typo hides no other entry's problem (docs/cli.md, validate).
 */
export function validateScript(script: ReadonlyArray<ScriptEntryShape>, locate: Locator, checked: (index: number) => boolean = () => true): void {
  // Either could only fail every run (SCRIPT_EXHAUSTED) or answer with nothing.
  if (!script.length) throw locate([], 'a script needs at least one entry, one per model call (text, tool_calls or error)');
  const problems: ConfigError[] = [];
  script.forEach((entry, index) => {
    if (!checked(index)) return;
    if (entry.text === undefined && entry.tool_calls === undefined && entry.error === undefined) {
      problems.push(locate([index], 'an entry needs text, tool_calls or error: what the model answers on that call'));
      return;
    }
    const seen = new Map<string, number>();
    (entry.tool_calls ?? []).forEach((call, position) => {
      if (call.id === undefined) return;
      const first = seen.get(call.id);
      if (first !== undefined) {
        problems.push(
          locate(
            [index, 'tool_calls', position, 'id'],
            `duplicate tool call id "${call.id}" (also tool_calls[${first}]); the calls of one response need distinct ids`,
          ),
        );
      } else seen.set(call.id, position);
    });
  });
  throwConfigErrors(problems);
}
