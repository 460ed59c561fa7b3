import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderFormatTypes } from '../../scripts/generate-format-types.mjs';

const repo = join(import.meta.dirname, '..', '..');

// The format types are generated from the JSON Schemas (docs/architecture.md, Formats): a schema
// changed without `npm run generate:types` fails here, before the types can drift from it.
describe('generated format types', () => {
  it('match what the generator renders from the current schemas', async () => {
    const files = await renderFormatTypes((module) => import(join(repo, `${module}.ts`)));
    expect(files.length).toBeGreaterThan(0);
    for (const { file, text } of files) {
      const checkedIn = readFileSync(join(repo, file), 'utf8');
      expect(checkedIn, `${file} is stale: run npm run generate:types`).toBe(text);
    }
  }, 60_000);
});

describe('the format type generator', () => {
  it('renders a key added to a schema into its type', async () => {
    const { agentBuildSchema } = await import('../../src/engine/revision/schema.js');
    const agent = agentBuildSchema.properties.agent;
    const changed = {
      ...agentBuildSchema,
      properties: { ...agentBuildSchema.properties, agent: { ...agent, properties: { ...agent.properties, external: { type: 'boolean' } } } },
    };
    const files = await renderFormatTypes(async (module) => {
      const exports = await import(join(repo, `${module}.ts`));
      return module.endsWith('revision/schema') ? { ...exports, agentBuildSchema: changed } : exports;
    });
    const build = files.find(({ file }) => file.endsWith('build-format.generated.ts'));
    expect(build?.text).toMatch(/export interface AgentSpec \{[^}]*external\?: boolean;/);
  }, 60_000);
});
