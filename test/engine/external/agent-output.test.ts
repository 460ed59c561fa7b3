import { describe, expect, it } from 'vitest';
import { parseAgentOutput } from '../../../src/engine/external/agent-output.js';

describe("an http agent's answer", () => {
  it('reads {output, trace_id}, and a non-string output as JSON text', () => {
    expect(parseAgentOutput('{"output": "done", "trace_id": "t1"}', true)).toEqual({ output: 'done', trace_id: 't1' });
    expect(parseAgentOutput('{"output": {"a": 1}}', true)).toEqual({ output: '{"a":1}' });
  });

  it('says what is wrong with an answer it cannot read, and whose answer it was', () => {
    const source = 'the answer of POST http://127.0.0.1:9/invoke';
    expect(() => parseAgentOutput('not json', true, source)).toThrow(
      `${source} is not a JSON object; expected {"output": ..., "trace_id"?: ...}, got "not json"`,
    );
    expect(() => parseAgentOutput('{"result": 1}', true, source)).toThrow(`${source} is a JSON object without the "output" key (it has: result)`);
    expect(() => parseAgentOutput('[1]', true, source)).toThrow(`${source} is not a JSON object`);
  });

  it("takes a command agent's plain text as its output", () => {
    expect(parseAgentOutput('  plain words\n', false)).toEqual({ output: 'plain words' });
  });
});
