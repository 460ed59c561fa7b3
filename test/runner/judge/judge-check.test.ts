import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { AGENT, runJudgeSuite, scenario, scriptedGrader } from './judge-suite.js';

const GOOD = '{"score": 0.82, "passed": true, "reason": "It refunded and apologised."}';
const judge = (grader: string, extra = '') => `    - judge: {rubric: "The agent confirms the refund politely.", model: ${grader}${extra}}`;

async function runOne(checks: string, files: Record<string, string> = {}, config?: string) {
  const dir = tempDir({ 'agent.yaml': AGENT, 'refund.scenario.yaml': scenario(checks), ...files });
  return runJudgeSuite(dir, { config: config && `${dir}/${config}` });
}

describe('judge checks', () => {
  it('passes when the score reaches the threshold, with the score and the grader reason', async () => {
    const { rows } = await runOne(judge(scriptedGrader(GOOD), ', threshold: 0.8'));
    expect(rows[0].status, rows[0].reason).toBe('pass');
    expect(rows[0].checks[0]).toMatchObject({ id: 'judge#0', kind: 'judge', status: 'pass', reason: 'score 0.82 >= 0.8: It refunded and apologised.' });
  });

  it('fails when the score is below the threshold (default 0.7), whatever the grader says about passing', async () => {
    const { rows } = await runOne(judge(scriptedGrader('{"score": 0.6, "passed": true, "reason": "Curt."}')));
    expect(rows[0].status).toBe('fail');
    expect(rows[0].checks[0]).toMatchObject({ status: 'fail', reason: 'score 0.6 < 0.7: Curt.' });
  });

  it('is a check error, never a pass, when the answer does not parse', async () => {
    const { rows } = await runOne(judge(scriptedGrader('Looks great to me! Score: 1')));
    expect(rows[0].status).toBe('error');
    expect(rows[0].checks[0].status).toBe('error');
    expect(rows[0].checks[0].reason).toMatch(/did not answer with JSON/);
    expect(rows[0].error?.type).toBe('CHECK_ERROR');
  });

  it('is a check error when the score is outside [0, 1] or a field is missing', async () => {
    const { rows } = await runOne(
      [judge(scriptedGrader('{"score": 1.5, "passed": true, "reason": "x"}')), judge(scriptedGrader('{"score": 0.9, "reason": "x"}'))].join('\n'),
    );
    expect(rows[0].checks.map((check) => check.status)).toEqual(['error', 'error']);
    expect(rows[0].checks[0].reason).toMatch(/score 1.5 is outside \[0, 1\]/);
    expect(rows[0].checks[1].reason).toMatch(/lacks passed \(true or false\)/);
  });

  it('is a check error, never a pass, when the answer gives a field twice (JSON.parse would keep the last)', async () => {
    const { rows } = await runOne(judge(scriptedGrader('{"score": 0.1, "passed": false, "reason": "bad", "score": 0.95}')));
    expect(rows[0].status).toBe('error');
    expect(rows[0].checks[0].status).toBe('error');
    expect(rows[0].checks[0].reason).toMatch(
      /^the grader's answer could not be used: the grader's answer gives score more than once \(JSON\.parse would keep the last silently\); the answer was /,
    );
  });

  it('says a field of the wrong type must be of its type, and names a tool the grader called instead of answering', async () => {
    const toolGrader = '{script: [{tool_calls: [{name: lookup_order, args: {}}]}]}';
    const { rows } = await runOne([judge(scriptedGrader('{"score": "0.9", "passed": true, "reason": "x"}')), judge(toolGrader)].join('\n'));
    expect(rows[0].checks[0].reason).toMatch(/^the grader's answer could not be used: score must be a number, got string "0\.9"; the answer was /);
    expect(rows[0].checks[1].reason).toBe('the grader\'s answer could not be used: the grader answered with a tool call ("lookup_order") instead of JSON');
  });

  it('words a failed grader call as such, with its own error.type on the evaluate span', async () => {
    const { rows, spans } = await runOne(judge('{script: [{error: {message: overloaded, status: 529}}]}'));
    expect(rows[0].checks[0]).toMatchObject({ status: 'error', reason: 'the grader call failed: overloaded' });
    const evaluate = spans.find((span) => span.name === 'evaluate judge#0');
    expect(evaluate?.status).toBe('error');
    expect(evaluate?.attributes['error.type']).toBe('grader_call_failed');
    expect(evaluate?.events?.[0].attributes).toEqual({
      'gen_ai.evaluation.name': 'judge#0',
      'error.type': 'grader_call_failed',
      'gen_ai.evaluation.explanation': 'the grader call failed: overloaded',
    });
  });

  it('keeps grading out of the agent evidence: turns, usage and tools are unchanged', async () => {
    const plain = await runOne('    - tool_called: {tool: create_refund}');
    const judged = await runOne(
      ['    - tool_called: {tool: create_refund}', '    - max_turns: 2', '    - max_tokens: 42', judge(scriptedGrader(GOOD))].join('\n'),
    );
    const [a, b] = [plain.rows[0], judged.rows[0]];
    expect(b.status, b.reason).toBe('pass');
    expect(b.turns).toBe(a.turns);
    expect(b.turns).toBe(2);
    expect(b.usage).toEqual(a.usage);
    expect(b.test_run?.tools).toEqual(a.test_run?.tools);
    expect(b.test_run?.verdict).toBe(a.test_run?.verdict);
    // The grading is a trace of its own: an evaluate root with the grader's chat span under it.
    const evaluate = judged.spans.find((span) => span.name === 'evaluate judge#3');
    expect(evaluate?.parent_id).toBeNull();
    const graderChat = judged.spans.filter((span) => span.trace_id === evaluate?.trace_id && span.name.startsWith('chat'));
    expect(graderChat).toHaveLength(1);
    expect(graderChat[0].attributes['gen_ai.usage.input_tokens']).toBe(100);
    expect(judged.spans.filter((span) => span.trace_id !== evaluate?.trace_id).length).toBe(plain.spans.length);
  });

  it('records the result as a gen_ai.evaluation.result event', async () => {
    const { spans } = await runOne(judge(scriptedGrader(GOOD)));
    const evaluate = spans.find((span) => span.name === 'evaluate judge#0');
    expect(evaluate?.attributes['gen_ai.operation.name']).toBe('evaluate');
    expect(evaluate?.events).toEqual([
      expect.objectContaining({
        name: 'gen_ai.evaluation.result',
        attributes: {
          'gen_ai.evaluation.name': 'judge#0',
          'gen_ai.evaluation.score.value': 0.82,
          'gen_ai.evaluation.score.label': 'pass',
          'gen_ai.evaluation.explanation': 'It refunded and apologised.',
        },
      }),
    ]);
  });

  it('records an unusable answer as an evaluation event with error.type', async () => {
    const { spans } = await runOne(judge(scriptedGrader('nope')));
    const evaluate = spans.find((span) => span.name === 'evaluate judge#0');
    expect(evaluate?.status).toBe('error');
    expect(evaluate?.events?.[0].attributes).toMatchObject({ 'gen_ai.evaluation.name': 'judge#0', 'error.type': 'grader_answer_invalid' });
  });

  it('is a located ConfigError at load time when no grader model is given anywhere', async () => {
    const error = await runOne('    - judge: {rubric: "Polite."}').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/expect\.checks\[0\]\.judge/);
    expect((error as Error).message).toMatch(/needs a grader model/);
  });

  it('refuses a blank rubric at load time, as an empty one, never asking the grader', async () => {
    for (const rubric of ['"   "', '"\\t\\n"']) {
      const error = await runOne(`    - judge: {rubric: ${rubric}, model: ${scriptedGrader(GOOD)}}`).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(
        /at expect\.checks\[0\]\.judge\.rubric: expected text that is not blank \(white space alone says nothing\), got string "/,
      );
    }
  });

  it('rejects a grader model without provider and model, and unknown keys, at load time', async () => {
    const noProvider = await runOne('    - judge: {rubric: "Polite.", model: {model: gpt-x}}').catch((thrown: unknown) => thrown);
    expect((noProvider as Error).message).toMatch(/expect\.checks\[0\]\.judge\.model.*needs `provider` and `model`/s);
    const unknownKey = await runOne('    - judge: {rubric: "Polite.", model: {provider: openai, model: gpt-x, temprature: 0}}').catch(
      (thrown: unknown) => thrown,
    );
    expect(unknownKey).toBeInstanceOf(ConfigError);
    expect((unknownKey as Error).message).toMatch(/temprature/);
  });

  it("holds a grader's parameters to its provider's API, in the check and in the suite config", async () => {
    const own = await runOne('    - judge: {rubric: "Polite.", model: {provider: anthropic, model: m, parameters: {temperature: 5}}}').catch(
      (thrown: unknown) => thrown,
    );
    expect(own).toBeInstanceOf(ConfigError);
    expect((own as Error).message).toMatch(/expect\.checks\[0\]\.judge\.model\.parameters\.temperature: expected a number <= 1, got number 5/);
    const config = 'judge:\n  model: {provider: openai, model: grader-1, parameters: {temprature: 0, max_tokens: -5}}\n';
    const suite = await runOne('    - judge: {rubric: "Polite."}', { 'agentcheck.config.yaml': config }, 'agentcheck.config.yaml').catch(
      (thrown: unknown) => thrown,
    );
    expect(suite).toBeInstanceOf(ConfigError);
    expect((suite as Error).message).toMatch(
      /agentcheck\.config\.yaml:2:\d+ at judge\.model\.parameters\.temprature: unknown openai parameter "temprature"; did you mean "temperature"\?/,
    );
    expect((suite as Error).message).toMatch(/at judge\.model\.parameters\.max_tokens: expected a number >= 1, got number -5/);
  });

  it("says its grader's parameter problems beside the check's own format problems, in one pass", async () => {
    const error = await runOne(
      '    - judge: {rubric: r, threshold: 2, model: {provider: scripted, model: g, script: [{text: x}], parameters: {temperature: 3, tool_choice: auto}}}',
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigError);
    const lines = (error as Error).message.split('\n').map((line) => line.replace(/^.* at expect\.checks\[0\]\.judge\./, ''));
    expect(lines).toEqual([
      'threshold: expected a number <= 1, got number 2',
      'model.parameters.temperature: expected a number <= 2, got number 3',
      'model.parameters.tool_choice: "tool_choice" is not for a grader: a grader is sent no tools',
    ]);
  });

  it('offers a misspelt grader parameter only parameters a grader accepts, in the check and in the suite config', async () => {
    const own = await runOne('    - judge: {rubric: "Polite.", model: {provider: openai, model: m, parameters: {temprature: 0, tool_choise: none}}}').catch(
      (thrown: unknown) => thrown,
    );
    const config = 'judge:\n  model: {provider: scripted, parameters: {foo: 1}, script: [{text: x}]}\n';
    const suite = await runOne('    - judge: {rubric: "Polite."}', { 'agentcheck.config.yaml': config }, 'agentcheck.config.yaml').catch(
      (thrown: unknown) => thrown,
    );
    for (const error of [own, suite]) {
      expect(error).toBeInstanceOf(ConfigError);
      const lists = [...(error as Error).message.matchAll(/expected one of: ([^(]*)\(/g)].map((match) => match[1].split(', ').map((key) => key.trim()));
      expect(lists.length).toBeGreaterThan(0);
      for (const list of lists) {
        expect(list).toContain('temperature');
        for (const refused of ['response_format', 'tool_choice', 'parallel_tool_calls', 'max_tool_calls']) expect(list).not.toContain(refused);
      }
    }
    expect((own as Error).message).toMatch(/unknown openai parameter "temprature"; did you mean "temperature"\?/);
    // The near key would be tool_choice, which a grader refuses: no hint offers it.
    expect((own as Error).message).not.toMatch(/did you mean "tool_choice"/);
  });

  it('names the environment variable to set when the grader has no API key, not the library option apiKey', async () => {
    const { rows } = await runOne('    - judge: {rubric: "Polite.", model: {provider: anthropic, model: claude-x}}');
    expect(rows[0].checks[0]).toMatchObject({
      status: 'error',
      reason: 'the grader call failed: anthropic: no API key: set ANTHROPIC_API_KEY in the environment to call https://api.anthropic.com',
    });
  });

  it('grades every repeat with a fresh grader, like any check', async () => {
    const config = `repeat: 2\njudge:\n  model: ${scriptedGrader(GOOD)}\n`;
    const { rows, spans } = await runOne('    - judge: {rubric: "Polite."}', { 'agentcheck.config.yaml': config }, 'agentcheck.config.yaml');
    expect(rows.map((row) => [row.repeat, row.status, row.checks[0].status])).toEqual([
      [0, 'pass', 'pass'],
      [1, 'pass', 'pass'],
    ]);
    expect(spans.filter((span) => span.name === 'evaluate judge#0')).toHaveLength(2);
  });

  it('uses the suite config judge.model when the check names none', async () => {
    const config = `judge:\n  model: ${scriptedGrader('{"score": 0.9, "passed": true, "reason": "From the suite grader."}')}\n`;
    const { rows } = await runOne('    - judge: {rubric: "Polite."}', { 'agentcheck.config.yaml': config }, 'agentcheck.config.yaml');
    expect(rows[0].status, rows[0].reason).toBe('pass');
    expect(rows[0].checks[0].reason).toBe('score 0.9 >= 0.7: From the suite grader.');
  });
});
