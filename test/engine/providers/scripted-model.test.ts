import { describe, expect, it } from 'vitest';
import * as library from '../../../src/index.js';
import { ConfigError, ScriptedModel } from '../../../src/index.js';

/** The message of what `new ScriptedModel(script)` throws, which must be a ConfigError. */
function problemOf(script: unknown): string {
  let caught: unknown;
  try {
    new ScriptedModel(script as never);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  return (caught as Error).message;
}

describe("the library's ScriptedModel", () => {
  it('refuses the script entries invoke and testRun refuse, with their messages, at script', () => {
    const cases: Array<[unknown, string]> = [
      [
        [{ txt: 'Refund created.' }],
        'ScriptedModel at script[0].txt: unknown key "txt" (did you mean "text"?); expected one of: text, tool_calls, usage, delay_ms, error',
      ],
      [[{}], 'ScriptedModel at script[0]: an entry needs text, tool_calls or error: what the model answers on that call'],
      [
        [{ text: 'x', error: { message: 'boom' } }],
        'ScriptedModel at script[0].error: an entry is either an answer (text and/or tool_calls) or an error, not both: a call that fails answers nothing, so its text and tool_calls would be dropped; remove one',
      ],
      [
        [{ text: 'ok' }, { tool_calls: [] }],
        'ScriptedModel at script[1].tool_calls: an entry needs text, tool_calls or error: an empty tool_calls list answers nothing (give at least one call, or text: "" for an empty answer)',
      ],
      [[{ text: 'x', bogus: 1 }], 'ScriptedModel at script[0].bogus: unknown key "bogus"; expected one of: text, tool_calls, usage, delay_ms, error'],
      [
        [
          {
            tool_calls: [
              { name: 'list_dir', id: 'a' },
              { name: 'list_dir', id: 'a' },
            ],
          },
        ],
        'ScriptedModel at script[0].tool_calls[1].id: duplicate tool call id "a" (also tool_calls[0]); the calls of one response need distinct ids',
      ],
      [[], 'ScriptedModel at script: a script needs at least one entry, one per model call (text, tool_calls or error)'],
      // A non-object entry at its own index, a non-list as what it is, as testRun and a scenario say them.
      [[1], 'ScriptedModel at script[0]: expected object, got number 1'],
      [[null], 'ScriptedModel at script[0]: expected object, got null'],
      [[[]], 'ScriptedModel at script[0]: expected object, got an array'],
      [[{ text: 'a' }, 'hi'], 'ScriptedModel at script[1]: expected object, got string "hi"'],
      ['hi', 'ScriptedModel at script: expected array, got string "hi"'],
      [{ text: 'a' }, 'ScriptedModel at script: expected array, got an object'],
    ];
    for (const [script, expected] of cases) expect(problemOf(script)).toBe(expected);
  });

  it('names every wrong entry in one ConfigError', () => {
    const message = problemOf([{}, { text: 'x', error: { message: 'boom' } }, { tool_calls: [] }]);
    expect(message).toContain('ScriptedModel at script[0]: an entry needs text, tool_calls or error');
    expect(message).toContain('ScriptedModel at script[1].error: an entry is either an answer');
    expect(message).toContain('ScriptedModel at script[2].tool_calls: an entry needs text, tool_calls or error: an empty tool_calls list');
  });

  it('takes a sound script, optional keys spread as undefined included, and answers from it', async () => {
    const model = new ScriptedModel([{ text: 'done', usage: undefined }], 'm1');
    const response = await model.generate({ system: '', messages: [{ role: 'user', content: 'go' }], tools: [], parameters: {} } as never);
    expect(response.text).toBe('done');
    expect(model.modelId).toBe('m1');
  });

  it('refuses a modelId that is no model name (an object, a number, null, ""), beside the script\'s problems; without one it is "scripted"', () => {
    for (const [modelId, shown] of [
      [{ a: 1 }, 'an object'],
      [5, 'number 5'],
      [null, 'null'],
      ['', 'string ""'],
    ] as const) {
      let caught: unknown;
      try {
        new ScriptedModel([{}], modelId as never);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as Error).message.split('\n')).toEqual([
        'ScriptedModel at script[0]: an entry needs text, tool_calls or error: what the model answers on that call',
        `ScriptedModel at modelId: expected a model name (a non-empty string), got ${shown}`,
      ]);
    }
    expect(new ScriptedModel([{ text: 'x' }]).modelId).toBe('scripted');
  });

  it('offers no unchecked way in from the library', () => {
    expect(Object.keys(library).filter((name) => /script/i.test(name))).toEqual(['ScriptedModel']);
  });
});
