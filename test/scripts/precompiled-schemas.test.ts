import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import { FORMAT_AJV_OPTIONS, formatSchemaKey, precompiledFileName } from '../../src/config/json-schema.js';
import { graderModelSchema } from '../../src/runner/judge/grader-model.js';
import { cassetteFileSchema } from '../../src/runner/cassettes/cassette.js';
import { scenarioProperties, scriptSchema } from '../../src/runner/scenario/scenario-schema.js';
import { REQUEST_SCHEMAS } from '../../src/runner/test-run-request.js';

// The build (npm run build, run before the tests) writes the validators; a schema missing here is
// compiled with Ajv at run time, which loads Ajv and costs every cold `agentcheck test-run`.
const require = createRequire(import.meta.url);
const generated = (key: string): unknown => {
  try {
    return (require(`../../dist/src/config/format-validators/${precompiledFileName(key)}`) as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
};

describe('schemas validated at run time are precompiled by the build', () => {
  it("has a validator for test-run's --script, --inputs, --mocks and --approvals files, request fields, cassettes and grader models", () => {
    const schemas = {
      script: scriptSchema,
      inputs: scenarioProperties.inputs,
      mocks: scenarioProperties.mocks,
      approvals: scenarioProperties.approvals,
      cassette: cassetteFileSchema,
      grader: graderModelSchema,
      ...Object.fromEntries(REQUEST_SCHEMAS.map((schema, i) => [`request ${i}`, schema])),
    };
    const missing = Object.entries(schemas)
      .filter(([, schema]) => typeof generated(formatSchemaKey(schema)) !== 'function')
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });
});

describe('precompiled validators', () => {
  it('are built with the runtime options: every problem of a value, as a validator compiled now finds them', () => {
    const value = { mesages: [], context: 5 };
    const precompiled = generated(formatSchemaKey(scenarioProperties.inputs)) as ValidateFunction;
    const { $id: _id, ...schema } = scenarioProperties.inputs as Record<string, unknown>;
    const compiled = new Ajv(FORMAT_AJV_OPTIONS).compile(schema);
    expect(precompiled(value)).toBe(false);
    expect(compiled(value)).toBe(false);
    const keywords = (validate: ValidateFunction) => (validate.errors ?? []).map((error) => `${error.instancePath} ${error.keyword}`);
    expect([...keywords(precompiled)].sort()).toEqual([' additionalProperties', ' required', '/context type']);
    expect(keywords(precompiled)).toEqual(keywords(compiled));
  });
});
