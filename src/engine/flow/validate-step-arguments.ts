import type { Locator } from '../../config/assert-format.js';
import { throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { subschemaValueProblem } from '../../config/subschema-value.js';
import { closedArgumentNames } from '../revision/argument-names.js';
import type { ComponentSpec } from '../revision/types.js';
import { parseIOKey } from './io-key.js';

/**
 * Checks a deterministic step's inputs against its tool's parameters when the flow loads
 * (docs/workflows.md, Flows): each input becomes the argument named `as`, else its last sub key; a
 * required parameter without an input, an argument the schema does not know, and two inputs
 * with the same name are load errors. A tool that declares no properties takes anything. A
 * literal input is checked against the schema of its argument (the property's schema, else an
 * `additionalProperties` schema).
 */
export function validateStepArguments(
  component: ComponentSpec,
  tool: string,
  parameters: Record<string, unknown> | undefined,
  at: Array<string | number>,
  locate: Locator,
): void {
  // Every input's problem in one pass (docs/cli.md, validate).
  const problems: ConfigError[] = [];
  const given = new Map<string, number>();
  (component.inputs ?? []).forEach((raw, index) => {
    const key = parseIOKey(raw);
    const name = key.name;
    // A literal without "as" has no name: that is said once, by the flow's own input rules.
    if (name === '') return;
    if (given.has(name))
      problems.push(
        locate([...at, 'inputs', index], `two inputs give argument "${name}" (inputs[${given.get(name)}] and inputs[${index}]); rename one with "as"`),
      );
    else given.set(name, index);
  });
  const names = closedArgumentNames(parameters);
  if (names) {
    for (const [name, index] of given) {
      if (!names.includes(name)) {
        const known = names.join(', ') || 'none';
        problems.push(locate([...at, 'inputs', index], `tool "${tool}" has no argument "${name}"; its arguments are: ${known} (name an input with "as")`));
      }
    }
  }
  (component.inputs ?? []).forEach((raw, index) => {
    const key = parseIOKey(raw);
    if (!key.hasLiteral) return;
    const schema = argumentSchema(parameters, key.name);
    const problem = schema && subschemaValueProblem(schema, parameters as Record<string, unknown>, key.literal);
    if (problem) {
      problems.push(locate([...at, 'inputs', index, 'literal'], `literal for argument "${key.name}" of tool "${tool}" does not fit its schema: ${problem}`));
    }
  });
  const required = Array.isArray(parameters?.required) ? (parameters.required as unknown[]).filter((name): name is string => typeof name === 'string') : [];
  // A required argument with a schema default is filled in before the call runs (docs/formats.md).
  const missing = required.filter((name) => !given.has(name) && argumentSchema(parameters, name)?.default === undefined);
  if (missing.length) {
    problems.push(
      locate(
        [...at, 'inputs'],
        `tool "${tool}" requires ${missing.map((name) => `"${name}"`).join(', ')}; add an input for each (e.g. {from: "context:${missing[0]}", as: ${missing[0]}})`,
      ),
    );
  }
  throwConfigErrors(problems);
}

/** The schema an argument's value must fit: its property schema, else an additionalProperties schema. */
function argumentSchema(parameters: Record<string, unknown> | undefined, name: string): Record<string, unknown> | undefined {
  const properties = parameters?.properties;
  const own = isObject(properties) && Object.hasOwn(properties, name) ? properties[name] : parameters?.additionalProperties;
  return isObject(own) ? own : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
