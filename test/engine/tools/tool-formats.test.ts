import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { loadAgentBuild } from '../../../src/engine/revision/load-build.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { build, runScripted } from '../../helpers/run-agent.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Loads a build file and returns its load problems. */
function problemsOf(yaml: string): ConfigError[] {
  const dir = tempDir({ 'fm.yaml': yaml });
  const error = configErrorOf(() => loadAgentBuild(join(dir, 'fm.yaml')));
  return error instanceof ConfigErrors ? [...error.errors] : [error];
}

const KNOWN = 'date, time, date-time, iso-time, iso-date-time, duration, uri, uri-reference, uri-template, url, email, hostname, ipv4, ipv6, regex, uuid';

describe('JSON Schema formats in tool parameters', () => {
  it('refuses a format name that is not a standard one, located at the format, with the known names', () => {
    const problems = problemsOf(`id: fm
agent:
  name: x
  tools:
    - name: t
      description: t
      parameters:
        type: object
        properties:
          z: {type: string, format: made-up}
          d: {type: array, items: {type: string, format: date-tim}}
          e: {type: string, format: email, default: nobody}
      returns: 1
`);
    expect(problems.map((problem) => [problem.path, problem.line])).toEqual([
      ['agent.tools[0].parameters.properties.z.format', 10],
      ['agent.tools[0].parameters.properties.d.items.format', 11],
      ['agent.tools[0].parameters.properties.e.default', 12],
    ]);
    const [madeUp, typo, defaulted] = problems.map((problem) => problem.expected);
    expect(madeUp).toMatch(new RegExp(`^unknown format "made-up"; expected one of: ${KNOWN}, `));
    expect(typo).toMatch(/^unknown format "date-tim"; did you mean "date-time"\?; expected one of: /);
    expect(defaulted).toBe('default does not fit its own schema: expected format "email", got string "nobody"');
  });

  it('checks the arguments of a call against the standard formats: a mismatch is an invalid-arguments tool error', async () => {
    const parameters = {
      type: 'object',
      properties: { e: { type: 'string', format: 'email' }, d: { type: 'string', format: 'date-time' }, id: { type: 'string', format: 'uuid' } },
    };
    const revision = build({ tools: [{ name: 't', description: 't', parameters, returns: 1 }] });
    const { turn } = await runScripted(revision, [
      { tool_calls: [{ name: 't', args: { e: 'not-an-email', d: 'yesterday' } }] },
      { tool_calls: [{ name: 't', args: { e: 'ada@example.com', d: '2024-05-01T10:00:00Z', id: '0c4e7a9e-5b7e-4f3a-9d5e-2f1b3c4d5e6f' } }] },
      { text: 'done' },
    ]);
    const [bad, good] = turn.messages.filter((message) => message.role === 'tool');
    expect(bad).toMatchObject({ is_error: true, content: 'Invalid arguments for t: e: expected format "email", got string "not-an-email".' });
    expect(good).toMatchObject({ is_error: false, content: '1' });
  });

  it('refuses a flow literal that does not fit its format, at load', () => {
    const [problem] = problemsOf(`id: fl
agent:
  name: x
  tools: [{name: t, description: t, parameters: {type: object, properties: {e: {type: string, format: email}}}, returns: 1}]
flow:
  entry_point: s
  components: [{name: s, type: deterministic_step, tool_name: t, inputs: [{literal: nobody, as: e}]}]
  routers: [{from: s, to: end}]
`);
    expect(problem.path).toBe('flow.components[0].inputs[0].literal');
    expect(problem.expected).toBe('literal for argument "e" of tool "t" does not fit its schema: expected format "email", got string "nobody"');
  });
});
