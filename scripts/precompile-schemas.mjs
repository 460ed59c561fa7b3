// Build step (after tsc): compiles agentcheck's own format schemas to standalone validator code,
// so a run does not spend ~0.5 s compiling them at start-up. Runtime falls back to compiling
// when the generated module is absent (tests run the TypeScript sources).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src');
const named = [
  ['engine/revision/schema.js', 'agentBuildSchema'],
  ['engine/revision/delta.js', 'deltaSchema'],
  ['runner/scenario/scenario-schema.js', 'scenarioSchema'],
  ['runner/scenario/scenario-schema.js', 'scenarioFileSchema'],
  ['runner/suite/suite-config.js', 'suiteConfigSchema'],
];
const { FORMAT_AJV_OPTIONS, META_SCHEMA_KEY, formatSchemaKey, precompiledFileName } = await import(join(dist, 'config/json-schema.js'));
const schemas = [];
for (const [file, name] of named) schemas.push((await import(join(dist, file)))[name]);
// What `test-run`, `resume` and the MCP server validate at run time: scripts, inputs, mocks,
// approvals (each field of a scenario), request fields, cassettes and grader models.
const scenarioSchemas = await import(join(dist, 'runner/scenario/scenario-schema.js'));
schemas.push(scenarioSchemas.scriptSchema, scenarioSchemas.skillsSchema, ...Object.values(scenarioSchemas.scenarioProperties));
schemas.push(...(await import(join(dist, 'runner/test-run-request.js'))).REQUEST_SCHEMAS);
schemas.push((await import(join(dist, 'runner/cassettes/cassette.js'))).cassetteFileSchema);
schemas.push((await import(join(dist, 'runner/judge/grader-model.js'))).graderModelSchema);
// Loading the check registry fills PARAMS_SCHEMAS with every check kind's params schema.
await import(join(dist, 'verdicts/checks/index.js'));
schemas.push(...(await import(join(dist, 'verdicts/check-params.js'))).PARAMS_SCHEMAS);
// llm.parameters per provider.
schemas.push(...Object.values((await import(join(dist, 'engine/providers/parameter-specs.js'))).PARAMETER_SCHEMAS));

// No `format` keyword in our schemas; the meta-schema's formats are not checked (as at runtime).
const ajv = new Ajv({ ...FORMAT_AJV_OPTIONS, validateFormats: false, code: { source: true, esm: false } });
const exports = {};
for (const schema of schemas) {
  // Keys are content hashes: a schema changed since the build is compiled at runtime instead.
  const { $id, ...rest } = schema;
  const key = formatSchemaKey(schema);
  if (exports[key]) continue;
  ajv.addSchema($id ? schema : rest, key);
  exports[key] = $id ?? key;
}
// The JSON Schema meta-schema, to check tool `parameters` without compiling it at start-up.
const require = createRequire(import.meta.url);
const meta = { ...require('ajv/dist/refs/json-schema-draft-07.json') };
delete meta.$id;
delete meta.$schema;
ajv.addSchema(meta, META_SCHEMA_KEY);
exports[META_SCHEMA_KEY] = META_SCHEMA_KEY;

// One file per schema (the schemas share no code): a command loads only the validators it uses.
const out = join(dist, 'config/format-validators');
rmSync(out, { recursive: true, force: true });
rmSync(join(dist, 'config/format-validators.generated.cjs'), { force: true });
mkdirSync(out, { recursive: true });
const generate = standaloneCode.default ?? standaloneCode;
for (const [key, id] of Object.entries(exports)) writeFileSync(join(out, precompiledFileName(key)), generate(ajv, { [key]: id }));
console.log(`precompiled ${Object.keys(exports).length} schemas -> ${out}/`);
