import type { Locator } from '../../config/assert-format.js';
import { userSchemaProblems } from '../../config/json-schema.js';
import { throwConfigErrors } from '../../config/errors.js';
import { locatedSchemaProblems } from '../../config/user-schema-problem.js';
import { formatPath } from '../../config/source.js';
import { compileSafeRegex, regexProblem, testCapped } from '../../spans/query-regex.js';
import { asList, atLeastOne, checkSchema, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { show } from '../describe.js';

/** `output: {contains, not_contains, equals, matches, schema}`; each given condition must hold. */
export interface OutputParams {
  contains?: string | string[];
  not_contains?: string | string[];
  equals?: string;
  matches?: string;
  schema?: Record<string, unknown>;
}

const KIND = 'output';
const KEYS = ['contains', 'not_contains', 'equals', 'matches', 'schema'];
const schema = objectParams({ contains: PARAM.texts, not_contains: PARAM.texts, equals: PARAM.text, matches: PARAM.text, schema: { type: 'object' } });

/** The run's output text contains / does not contain / equals / matches, or parses as JSON valid against a schema. */
export const output: Check<OutputParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkSchema(schema, params, locate);
    const p = params as OutputParams;
    atLeastOne(p as Record<string, unknown>, KEYS, locate);
    const regex = p.matches === undefined ? null : regexProblem(p.matches);
    if (regex) throw locate(['matches'], regex);
    // Every problem of the schema, each at its value, as a tool's parameters (docs/cli.md, validate).
    if (p.schema !== undefined) throwConfigErrors(locatedSchemaProblems(p.schema, 'plain', ['schema'], locate));
  },
  run(params, evidence, id) {
    const text = evidence.output;
    const ids = evidence.root ? [evidence.root.span_id] : [];
    const fail = (reason: string) => result(KIND, id, 'fail', `${reason}; output was ${show(text)}`, ids);
    const held: string[] = [];
    for (const part of asList(params.contains)) {
      if (!text.includes(part)) return fail(`expected output to contain ${show(part)}`);
      held.push(`contains ${show(part)}`);
    }
    for (const part of asList(params.not_contains)) {
      if (text.includes(part)) return fail(`expected output not to contain ${show(part)}`);
      held.push(`does not contain ${show(part)}`);
    }
    if (params.equals !== undefined) {
      if (text !== params.equals) return fail(`expected output to equal ${show(params.equals)}`);
      held.push(`equals ${show(params.equals)}`);
    }
    if (params.matches !== undefined) {
      if (!testCapped(compileSafeRegex(params.matches), text)) return fail(`expected output to match /${params.matches}/`);
      held.push(`matches /${params.matches}/`);
    }
    if (params.schema !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return fail('expected output to be JSON valid against the schema; it is not JSON');
      }
      const problem = userSchemaProblems(params.schema, parsed)[0];
      if (problem) {
        const where = problem.path.length ? ` at ${formatPath(problem.path)}` : '';
        return fail(`expected output to be JSON valid against the schema${where}: ${problem.expected}`);
      }
      held.push('is JSON valid against the schema');
    }
    return result(KIND, id, 'pass', `output ${held.join(', ')}`, ids);
  },
};
