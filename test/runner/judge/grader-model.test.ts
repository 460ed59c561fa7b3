import { describe, expect, it } from 'vitest';
import { memoryLocator } from '../../../src/config/assert-format.js';
import type { ConfigErrors } from '../../../src/config/errors.js';
import { judgeJobs, type GraderModel } from '../../../src/runner/judge/grader-model.js';

const ANSWER = [{ text: '{"score": 1, "passed": true, "reason": "ok"}' }];
const jobOf = (suiteModel: GraderModel, own?: GraderModel) =>
  judgeJobs([{ judge: { rubric: 'Polite.', ...(own ? { model: own } : {}) } }], { model: suiteModel }, memoryLocator('scenario'))[0];

describe("a judge check's grader over the suite's judge.model", () => {
  const openai: GraderModel = { provider: 'openai', model: 'grader-1', base_url: 'http://127.0.0.1:8791/v1', parameters: { seed: 1 } };

  it('merges keys when the check keeps the provider: parameters replaced as a whole, the endpoint kept', () => {
    expect(jobOf(openai, { model: 'grader-2', parameters: { temperature: 0 } }).llm).toEqual({
      provider: 'openai',
      model: 'grader-2',
      base_url: 'http://127.0.0.1:8791/v1',
      parameters: { temperature: 0 },
    });
  });

  it("keeps nothing of the suite's grader when the check names another provider: no endpoint, parameters or script", () => {
    const switched = jobOf(openai, { provider: 'anthropic', model: 'claude-x' });
    expect(switched.llm).toEqual({ provider: 'anthropic', model: 'claude-x' });
    // A suite script would answer in place of the check's named grader.
    const fromScript = jobOf({ provider: 'scripted', script: ANSWER }, { provider: 'openai', model: 'g', base_url: 'http://127.0.0.1:1/v1' });
    expect(fromScript.script).toBeUndefined();
    expect(fromScript.llm).toEqual({ provider: 'openai', model: 'g', base_url: 'http://127.0.0.1:1/v1' });
    // A check's own script names the scripted model: the suite's openai endpoint is not kept.
    const ownScript = jobOf(openai, { script: ANSWER });
    expect(ownScript.script).toEqual(ANSWER);
    expect(ownScript.llm).toEqual({ provider: 'scripted', model: 'scripted' });
  });

  it('says a refused grader parameter once, not also as unknown to the provider', () => {
    let errors: string[] = [];
    try {
      jobOf(openai, { parameters: { max_tool_calls: 2, tool_choice: 5, temprature: 0 } });
    } catch (error) {
      errors = ((error as ConfigErrors).errors ?? [error]).map((problem) => problem.message);
    }
    expect(errors).toEqual([
      expect.stringMatching(/parameters\.temprature: unknown openai parameter "temprature"; did you mean "temperature"\?/),
      expect.stringMatching(/parameters\.max_tool_calls: "max_tool_calls" is not for a grader: a grader is sent no tools$/),
      expect.stringMatching(/parameters\.tool_choice: "tool_choice" is not for a grader: a grader is sent no tools$/),
    ]);
  });

  it('says a grader parameter put under extra is not for a grader there either, never to move it to parameters', () => {
    let errors: string[] = [];
    try {
      jobOf(openai, { parameters: { extra: { response_format: { type: 'json_object' }, tool_choice: 'none', seed: 1, custom: 1 } } });
    } catch (error) {
      errors = ((error as ConfigErrors).errors ?? [error]).map((problem) => problem.message);
    }
    expect(errors).toEqual([
      expect.stringMatching(/parameters\.extra\.seed: "seed" is a known openai parameter: set it in parameters/),
      expect.stringMatching(
        /parameters\.extra\.response_format: "response_format" is not for a grader, in extra either: the judge sets the answer format itself/,
      ),
      expect.stringMatching(/parameters\.extra\.tool_choice: "tool_choice" is not for a grader, in extra either: a grader is sent no tools$/),
    ]);
  });

  it('refuses grader parameters the judge sets itself or that need tools, and an empty script', () => {
    let message = '';
    try {
      jobOf(openai, { parameters: { response_format: { type: 'text' }, tool_choice: 'required', temperature: 0 } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/judge\.model\.parameters\.response_format: "response_format" is not for a grader: the judge sets the answer format itself/);
    expect(message).toMatch(/judge\.model\.parameters\.tool_choice: "tool_choice" is not for a grader: a grader is sent no tools/);
    expect(() => jobOf({ provider: 'openai-responses', model: 'g' }, { parameters: { text: { format: { type: 'text' } } } })).toThrow(
      /parameters\.text\.format: "text\.format" is not for a grader/,
    );
    // Under extra too, beside the advice to move text there (which a text without format may follow).
    expect(() => jobOf({ provider: 'openai-responses', model: 'g' }, { parameters: { extra: { text: { format: { type: 'json_object' } } } } })).toThrow(
      /parameters\.extra\.text\.format: "text\.format" is not for a grader, in extra either/,
    );
    expect(() => jobOf(openai, { provider: 'scripted', script: [] })).toThrow(/judge\.model\.script: a grader script needs at least one answer/);
  });

  it("holds the check's parameters to the provider it switched to", () => {
    expect(() => jobOf(openai, { provider: 'anthropic', model: 'claude-x', parameters: { seed: 1 } })).toThrow(/unknown anthropic parameter "seed"/);
  });

  it('reports every problem of the parameters in one pass: unknown or bad values beside the refused keys, and beside a missing model', () => {
    const messages = (own: GraderModel) => {
      try {
        judgeJobs([{ judge: { rubric: 'r', model: own } }], {}, memoryLocator('scenario'));
      } catch (error) {
        return (error as ConfigErrors).errors.map((one) => `${one.path}: ${one.expected.slice(0, 30)}`);
      }
      return [];
    };
    expect(
      messages({ provider: 'openai', model: 'm', parameters: { response_format: { type: 'text' }, tool_choice: 'auto', temprature: 1, max_tokens: -1 } }),
    ).toEqual([
      '[0].judge.model.parameters.temprature: unknown openai parameter "temp',
      '[0].judge.model.parameters.max_tokens: expected a number >= 1, got nu',
      '[0].judge.model.parameters.response_format: "response_format" is not for a',
      '[0].judge.model.parameters.tool_choice: "tool_choice" is not for a gra',
    ]);
    expect(messages({ provider: 'openai', model: 'm', timeout_ms: 0, parameters: { tool_choice: 'auto', temprature: 1 } })).toEqual([
      '[0].judge.model.timeout_ms: expected a number >= 1, got nu',
      '[0].judge.model.parameters.temprature: unknown openai parameter "temp',
      '[0].judge.model.parameters.tool_choice: "tool_choice" is not for a gra',
    ]);
    expect(messages({ provider: 'openai', parameters: { tool_choice: 'auto', temprature: 1 } })).toEqual([
      '[0].judge.model: a grader model needs `provider',
      '[0].judge.model.parameters.temprature: unknown openai parameter "temp',
      '[0].judge.model.parameters.tool_choice: "tool_choice" is not for a gra',
    ]);
  });
});
