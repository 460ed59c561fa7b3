// Generates the TypeScript types of agentcheck's file formats from their JSON Schemas, so the
// schemas stay the one source of truth (docs/architecture.md, Formats). Run with
// `npm run generate:types` (it builds first: the schemas are read from dist/, since they are
// TypeScript modules that import registries). test/config/format-types.test.ts renders the same
// files from the sources and fails when a checked-in file is stale.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile } from 'json-schema-to-typescript';

/**
 * Which schema becomes which type, in which file. `names` gives the sub-schema at a JSON
 * pointer (from the schema's root) a type name; a sub-schema object shared by several places
 * (the plan of a tool and of a flow component) is named, and declared, once. `types` replaces the
 * sub-schema at a pointer by a TypeScript type written out (a type of the same file).
 */
export const FORMAT_FILES = [
  {
    file: 'src/engine/revision/build-format.generated.ts',
    roots: [
      {
        module: 'src/engine/revision/schema',
        export: 'agentBuildSchema',
        type: 'AgentBuild',
        names: {
          '/properties/agent': 'AgentSpec',
          '/properties/agent/properties/llm': 'LlmSpec',
          '/properties/agent/properties/permissions': 'PermissionsSpec',
          '/properties/agent/properties/commands': 'CommandsSpec',
          '/properties/agent/properties/tools/items': 'ToolSpec',
          '/properties/agent/properties/tools/items/properties/http': 'HttpSpec',
          '/properties/agent/properties/tools/items/properties/command': 'CommandSpec',
          '/properties/agent/properties/tools/items/properties/chain': 'ChainSpec',
          '/properties/agent/properties/tools/items/properties/chain/properties/steps/items': 'ChainStepSpec',
          '/properties/agent/properties/tools/items/properties/plan': 'PlanSpec',
          '/properties/agent/properties/tools/items/properties/plan/properties/steps/items': 'PlanBlock',
          '/$defs/planCall': 'PlanToolCall',
          '/properties/agent/properties/mcps/items': 'McpServerSpec',
          '/properties/agent/properties/skills/items': 'SkillSpec',
          '/properties/flow': 'FlowSpec',
          '/properties/flow/properties/components/items': 'ComponentSpec',
          '/properties/flow/properties/components/items/properties/inputs/items': 'IOKey',
          '/properties/flow/properties/routers/items': 'RouterSpec',
          '/properties/external': 'ExternalSpec',
          '/properties/external/properties/tools/items': 'ExternalToolSpec',
          '/properties/external/properties/http': 'ExternalHttpSpec',
          '/properties/external/properties/http/properties/start': 'ExternalServerStart',
        },
      },
      { module: 'src/engine/revision/delta', export: 'deltaSchema', type: 'Delta' },
    ],
  },
  {
    file: 'src/runner/scenario/scenario-format.generated.ts',
    roots: [
      {
        module: 'src/runner/scenario/scenario-schema',
        export: 'scenarioSchema',
        type: 'ScenarioSpec',
        names: {
          '/properties/inputs': 'ScenarioInputsSpec',
          '/properties/inputs/properties/messages/items': 'MessageSpec',
          '/properties/model': 'ModelOverrideSpec',
          '/properties/model/properties/script/items': 'ScriptEntrySpec',
          '/properties/approvals': 'ApprovalsSpec',
          '/properties/mocks': 'MocksSpec',
          '/properties/mocks/properties/http/items': 'HttpMockSpec',
          '/properties/resume/items': 'ResumeAnswerSpec',
          '/properties/expect': 'ExpectSpec',
          '/properties/skills': 'SkillOptionsSpec',
        },
      },
      {
        module: 'src/runner/scenario/scenario-schema',
        export: 'scenarioFileSchema',
        type: 'ScenarioFileSpec',
        // `defaults` has exactly a scenario's keys, none required.
        types: { '/properties/defaults': 'Partial<ScenarioSpec>' },
      },
    ],
  },
  {
    file: 'src/runner/suite/suite-config-format.generated.ts',
    roots: [
      {
        module: 'src/runner/suite/suite-config',
        export: 'suiteConfigSchema',
        type: 'SuiteConfigSpec',
        names: {
          '/properties/skills': 'SkillOptionsSpec',
          '/properties/model': 'ModelSpec',
          '/properties/judge': 'JudgeSpec',
          '/properties/judge/properties/model': 'GraderModelSpec',
          '/properties/judge/properties/model/properties/script/items': 'ScriptEntrySpec',
          '/properties/cassettes': 'CassettesSpec',
        },
      },
    ],
  },
];

const OPTIONS = {
  bannerComment: '',
  // Objects the schema leaves open get an index signature, as JSON Schema means them.
  additionalProperties: true,
  // minItems is checked by the schema; as tuple types it would only make building values harder.
  ignoreMinAndMaxItems: true,
  unknownAny: true,
  strictIndexSignatures: false,
  style: { singleQuote: true, printWidth: 120, trailingComma: 'all' },
};

/** The object at a JSON pointer of `schema`; throws when the pointer names nothing. */
function at(schema, pointer, where) {
  let current = schema;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object' || !(key in current)) {
      throw new Error(`${where}: no sub-schema at ${pointer} (the schema changed: update FORMAT_FILES in scripts/generate-format-types.mjs)`);
    }
    current = current[key];
  }
  return current;
}

/** A deep copy of `schema` with `title` or `tsType` added to the marked objects; shared objects stay shared. */
function annotate(schema, marks) {
  const copies = new Map();
  const copy = (value) => {
    if (value === null || typeof value !== 'object') return value;
    if (copies.has(value)) return copies.get(value);
    const out = Array.isArray(value) ? [] : {};
    copies.set(value, out);
    for (const [key, item] of Object.entries(value)) out[key] = copy(item);
    if (!Array.isArray(value) && marks.has(value)) Object.assign(out, marks.get(value));
    return out;
  };
  return copy(schema);
}

/** Renders one root schema as TypeScript declarations. */
async function renderRoot(root, schema) {
  const where = `${root.module}.${root.export}`;
  const marks = new Map();
  const mark = (pointer, annotation) => {
    const target = at(schema, pointer, where);
    if (marks.has(target)) throw new Error(`${where}: ${pointer} is marked twice`);
    marks.set(target, annotation);
  };
  for (const [pointer, title] of Object.entries(root.names ?? {})) mark(pointer, { title });
  for (const [pointer, tsType] of Object.entries(root.types ?? {})) mark(pointer, { tsType });
  // The $id is agentcheck's key for the validator, not a name for the type.
  const { $id: _id, ...rest } = annotate(schema, marks);
  return compile({ ...rest, title: root.type }, root.type, OPTIONS);
}

/**
 * Renders every generated file. `load` imports a module (given as FORMAT_FILES writes it,
 * without extension) and returns its exports: from dist/ for the script, from the sources in
 * the test. Returns the files' paths (relative to the repository) and contents.
 */
export async function renderFormatTypes(load) {
  const files = [];
  for (const { file, roots } of FORMAT_FILES) {
    const parts = [];
    const declared = new Map();
    for (const root of roots) {
      const schema = (await load(root.module))[root.export];
      if (!schema) throw new Error(`${root.module} exports no ${root.export}`);
      const text = await renderRoot(root, schema);
      for (const [, name] of text.matchAll(/^export (?:interface|type) (\w+)/gm)) {
        if (declared.has(name)) throw new Error(`${file}: ${name} is declared by both ${declared.get(name)} and ${root.export}; give one of them another name`);
        declared.set(name, root.export);
      }
      parts.push(text.trim());
    }
    const sources = [
      ...new Set(
        roots.map(
          (root) =>
            `${root.module}.ts (${roots
              .filter((r) => r.module === root.module)
              .map((r) => r.export)
              .join(', ')})`,
        ),
      ),
    ];
    const header = [
      `// Generated by scripts/generate-format-types.mjs from the JSON Schemas in ${sources.join(', ')}.`,
      '// Do not edit: change the schema, then run `npm run generate:types` (docs/architecture.md, Formats).',
    ].join('\n');
    files.push({ file, text: `${header}\n\n${parts.join('\n\n')}\n` });
  }
  return files;
}

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const files = await renderFormatTypes((module) => import(pathToFileURL(join(repo, 'dist', `${module}.js`)).href));
  for (const { file, text } of files) writeFileSync(join(repo, file), text);
  console.log(`generated ${files.map(({ file }) => file).join(', ')}`);
}
