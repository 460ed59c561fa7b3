import { checkFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, type ConfigError, throwConfigErrors } from '../../config/errors.js';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';
import { withoutUndefined } from '../../config/without-undefined.js';
import type { ScriptEntry } from './scripted.js';

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

/** What an entry with both an answer and an error is told (docs/formats.md, Scenario). */
const ANSWER_AND_ERROR =
  'an entry is either an answer (text and/or tool_calls) or an error, not both: a call that fails answers nothing, so its text and tool_calls would be dropped; remove one';
/** What an entry whose only answer is an empty tool_calls list is told. */
const EMPTY_TOOL_CALLS =
  'an entry needs text, tool_calls or error: an empty tool_calls list answers nothing (give at least one call, or text: "" for an empty answer)';

/** The keys of a script entry the rules below read. */
export type ScriptEntryShape = { text?: string; error?: unknown; tool_calls?: ReadonlyArray<{ id?: string }> };

/**
 * What the schema cannot say about a script (already checked against scriptSchema): an entry
 * per call that answers something (text, at least one tool call, or an error, never an answer
 * and an error together), and the tool calls of one entry have distinct ids, since results are
 * matched to calls by id.
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
    const answers = entry.text !== undefined || entry.tool_calls !== undefined;
    if (!answers && entry.error === undefined) {
      problems.push(locate([index], 'an entry needs text, tool_calls or error: what the model answers on that call'));
      return;
    }
    // A failing call answers nothing: its text and calls would be dropped without a word.
    if (answers && entry.error !== undefined) problems.push(locate([index, 'error'], ANSWER_AND_ERROR, true));
    // An empty list is no answer, as `{}` is none: `text: ""` is how an entry answers with nothing.
    else if (entry.text === undefined && entry.tool_calls?.length === 0) problems.push(locate([index, 'tool_calls'], EMPTY_TOOL_CALLS));
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

/**
 * A script as the rules beyond its format read it: each entry with a format problem (reported
 * already) left as `{}`, its index kept, so it hides no other entry's problem (docs/cli.md, validate).
 */
export function soundScriptEntries<T extends object>(script: readonly T[], valid: (index: number) => boolean): Array<T | Record<string, never>> {
  return script.map((entry, index) => (valid(index) ? entry : {}));
}

/** A script's problems, and its entries as the tool-name checks read them (undefined when it is no list). */
export interface CheckedScript {
  problems: ConfigError[];
  entries?: ScriptEntry[];
}

/**
 * Every problem of a script given as one value (a test-run --script file, testRun's, invoke's,
 * new ScriptedModel's, MCP test_run's), in one pass: its format's, and validateScript's rules on
 * each entry the format left intact. Keys given as undefined count as not given, as a caller
 * spreading optional fields means them. `locate` takes paths relative to the script.
 */
export function checkScript(value: unknown, locate: Locator): CheckedScript {
  const format = checkFormat<ScriptEntry[]>(scriptSchema, withoutUndefined(value), locate);
  if (!format.typed([])) return { problems: format.errors };
  const entryOk = (index: number) => format.valid([index]);
  const entries = soundScriptEntries(format.value, entryOk);
  const problems = [...format.errors];
  collectConfigErrors(problems, () => validateScript(entries, locate, entryOk));
  return { problems, entries };
}

/** checkScript's problems thrown in one ConfigError (testRun's and invoke's script, new ScriptedModel). */
export function assertScript(value: unknown, locate: Locator): void {
  throwConfigErrors(checkScript(value, locate).problems);
}
