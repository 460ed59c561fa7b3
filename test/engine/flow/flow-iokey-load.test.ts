import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { loadAgentBuild } from '../../../src/engine/revision/load-build.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Loads a build file and returns its load problems, one per line. */
function problemsOf(yaml: string): ConfigError[] {
  const dir = tempDir({ 'flow.yaml': yaml });
  const error = configErrorOf(() => loadAgentBuild(join(dir, 'flow.yaml')));
  return error instanceof ConfigErrors ? [...error.errors] : [error];
}

describe('flows: an IOKey reads one source', () => {
  it('refuses "from" with "literal" in a component input and a router condition, located at the literal', () => {
    const problems = problemsOf(`id: io2
agent:
  name: R
flow:
  entry_point: b
  components:
    - {name: b, type: deterministic_step, tool_name: echo, inputs: [{from: "context:x", literal: "LIT", as: text}]}
    - {name: c, type: end}
  routers:
    - {from: b, condition: {input: {from: "context:b.tool_result", literal: x}, routes: {x: c}}}
`);
    expect(problems.map((problem) => [problem.path, problem.line, problem.column, problem.expected])).toEqual([
      ['flow.components[0].inputs[0].literal', 7, 89, 'an input takes "from" (a state key) or "literal" (a fixed value), not both; remove one'],
      ['flow.routers[0].condition.input.literal', 10, 68, 'an input takes "from" (a state key) or "literal" (a fixed value), not both; remove one'],
    ]);
  });

  it('refuses "optional: true" on a literal input and "as" on a router input, which mean nothing there, each at its key ("optional: false", the default, is let be)', () => {
    const problems = problemsOf(`id: io4
agent:
  name: R
flow:
  entry_point: b
  components:
    - {name: b, type: deterministic_step, tool_name: echo, inputs: [{literal: "LIT", as: text, optional: true}]}
    - {name: c, type: deterministic_step, tool_name: echo, inputs: [{literal: "LIT", as: text, optional: false}]}
  routers:
    - {from: b, condition: {input: {from: "context:b.error", as: z}, routes: {"null": c}}}
    - {from: c, condition: {input: {from: "context:c.error", optional: true}, routes: {"null": end}}}
`);
    expect(problems.map((problem) => [problem.path, problem.line, problem.column, problem.expected])).toEqual([
      ['flow.components[0].inputs[0].optional', 7, 96, '"optional" does not apply to a literal input (a fixed value is never missing); it takes: literal, as'],
      [
        'flow.routers[0].condition.input.as',
        10,
        62,
        `"as" does not apply to a router's input (its value is matched against the routes, never passed on by name); it takes: from, optional`,
      ],
    ]);
  });

  it("a router's literal input is told to read a key its component writes", () => {
    const problems = problemsOf(`id: io5
agent:
  name: R
flow:
  entry_point: s1
  components:
    - {name: s1, type: deterministic_step, tool_name: echo, inputs: [{literal: "x", as: text}]}
    - {name: a, type: agent}
    - {name: h, type: human_input}
  routers:
    - {from: s1, condition: {input: {literal: go}, routes: {go: a}}}
    - {from: a, condition: {input: {literal: go}, routes: {go: h}}}
    - {from: h, condition: {input: {literal: go}, routes: {go: end}}}
`);
    expect(problems.map((problem) => problem.expected)).toEqual([
      'expected a state key such as "context:s1.error"',
      'expected a state key such as "context:a.final_answer"',
      'expected a state key such as "context:h.decision"',
    ]);
  });

  it('still takes either one alone', () => {
    const dir = tempDir({
      'flow.yaml': `id: io3
agent:
  name: R
flow:
  entry_point: b
  components:
    - {name: b, type: deterministic_step, tool_name: echo, inputs: [{literal: "LIT", as: text}]}
    - {name: d, type: deterministic_step, tool_name: echo, inputs: [{from: "context:b.tool_result", as: text}]}
  routers:
    - {from: b, to: d}
    - {from: d, to: end}
`,
    });
    expect(() => loadAgentBuild(join(dir, 'flow.yaml'))).not.toThrow();
  });
});
