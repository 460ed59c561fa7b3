import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as JsonSchema from '../../src/config/json-schema.js';
import type * as UserSchemaProblem from '../../src/config/user-schema-problem.js';
import { CACHE_DIR_ENV } from '../../src/config/cache-folder.js';
import { runCli } from '../e2e/cli.js';
import { seedCliCodeCache } from '../helpers/seed-cli-code-cache.js';
import { tempDir } from '../helpers/temp-dir.js';

// A fresh object each time: compiled validators are also kept per schema object in memory.
const refundSchema = () => ({
  type: 'object',
  properties: { order_id: { type: 'string', pattern: '^\\d+$' }, reason: { enum: ['damaged', 'late'] }, note: { type: 'string', minLength: 2 } },
  required: ['order_id'],
  additionalProperties: false,
});
const samples = [
  {},
  { order_id: 'x' },
  { order_id: '1', extra: true },
  { order_id: '1', reason: 'lost' },
  { order_id: '1', note: 'a' },
  { order_id: '1', reason: 'late' },
];

let dir: string;
const saved = process.env[CACHE_DIR_ENV];
/** json-schema.ts as a new process loads it: nothing compiled in memory yet. */
async function freshProcess(): Promise<typeof JsonSchema & typeof UserSchemaProblem> {
  vi.resetModules();
  return { ...(await import('../../src/config/json-schema.js')), ...(await import('../../src/config/user-schema-problem.js')) };
}
let compileUserSchema: typeof JsonSchema.compileUserSchema;
let userSchemaProblem: typeof UserSchemaProblem.userSchemaProblem;
let userSchemaProblems: typeof JsonSchema.userSchemaProblems;
beforeEach(async () => {
  dir = tempDir();
  process.env[CACHE_DIR_ENV] = dir;
  ({ compileUserSchema, userSchemaProblem, userSchemaProblems } = await freshProcess());
});
afterEach(() => {
  if (saved === undefined) delete process.env[CACHE_DIR_ENV];
  else process.env[CACHE_DIR_ENV] = saved;
});
const entries = () => readdirSync(join(dir, 'schemas')).filter((name) => name.endsWith('.cjs'));

describe('the schema cache (compiled user schemas on disk)', () => {
  it('stores a compiled schema once, and a later process loads it with the same verdicts and errors', async () => {
    const compiled = compileUserSchema(refundSchema());
    expect(entries()).toHaveLength(1);
    // In one process, an equal schema in another object (each delta's copy of a build) is not compiled again.
    expect(compileUserSchema(refundSchema())).toBe(compiled);
    ({ compileUserSchema, userSchemaProblems } = await freshProcess());
    const loaded = compileUserSchema(refundSchema());
    // Ajv's own validators carry their schema environment; the cached code is plain functions.
    expect('schemaEnv' in compiled).toBe(true);
    expect('schemaEnv' in loaded).toBe(false);
    for (const sample of samples) {
      expect(loaded(sample)).toBe(compiled(sample));
      expect(loaded.errors ?? null).toEqual(compiled.errors ?? null);
    }
    expect(userSchemaProblems(refundSchema(), { order_id: '1', extra: true })).toEqual([
      { path: ['extra'], expected: 'unknown key "extra"; expected one of: order_id, reason, note', atKey: true, subject: ['extra'], unknownKey: true },
    ]);
    expect(entries()).toHaveLength(1);
  });

  it('caches tool schemas with their formats: a later process checks them from the cached code', async () => {
    const contact = () => ({ type: 'object', properties: { email: { type: 'string', format: 'email' } } });
    const compiled = compileUserSchema(contact(), 'tool');
    // Check schemas (plain) treat format as an annotation, and are another entry.
    expect(compileUserSchema(contact())({ email: 'x' })).toBe(true);
    expect(entries()).toHaveLength(2);
    ({ compileUserSchema, userSchemaProblems } = await freshProcess());
    const loaded = compileUserSchema(contact(), 'tool');
    expect('schemaEnv' in compiled).toBe(true);
    expect('schemaEnv' in loaded).toBe(false);
    expect(loaded({ email: 'ada@example.com' })).toBe(true);
    expect(loaded({ email: 'x' })).toBe(false);
    expect(userSchemaProblems(contact(), { email: 'x' }, 'tool')).toEqual([
      { path: ['email'], expected: 'expected format "email", got string "x"', atKey: false, subject: ['email'] },
    ]);
  });

  it('keys entries by the schema text: the same keys in another order are another entry', () => {
    compileUserSchema({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } });
    compileUserSchema({ type: 'object', properties: { b: { type: 'string' }, a: { type: 'string' } } });
    expect(entries()).toHaveLength(2);
  });

  it('compiles again over a damaged entry and replaces it', async () => {
    compileUserSchema(refundSchema());
    const [entry] = entries();
    writeFileSync(join(dir, 'schemas', entry), 'module.exports = (');
    const validate = (await freshProcess()).compileUserSchema(refundSchema());
    expect(validate({ order_id: 'x' })).toBe(false);
    expect('schemaEnv' in validate).toBe(true);
    expect('schemaEnv' in (await freshProcess()).compileUserSchema(refundSchema())).toBe(false);
  });

  it('still compiles when the cache folder cannot be written', () => {
    writeFileSync(join(dir, 'schemas'), 'a file where the folder should be');
    expect(compileUserSchema(refundSchema())({ order_id: '12' })).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    "still compiles, and returns, when the cache folder is under /proc (where Node 20's recursive mkdir never returns)",
    async () => {
      process.env[CACHE_DIR_ENV] = '/proc/agentcheck-nope/cache';
      ({ compileUserSchema } = await freshProcess());
      expect(compileUserSchema(refundSchema())({ order_id: '12' })).toBe(true);
    },
  );

  it('is off with AGENTCHECK_CACHE_DIR=off', async () => {
    process.env[CACHE_DIR_ENV] = 'off';
    expect('schemaEnv' in compileUserSchema(refundSchema())).toBe(true);
    expect('schemaEnv' in (await freshProcess()).compileUserSchema(refundSchema())).toBe(true);
    expect(() => readdirSync(dir)).not.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never caches a schema with $id or a $ref outside itself, so their errors stay the same', () => {
    const withId = () => ({ $id: 'https://example.test/schema-cache-order', type: 'object' });
    expect(userSchemaProblem(withId())).toBeNull();
    expect(userSchemaProblem(withId())).toMatch(/already exists/);
    expect(userSchemaProblem({ type: 'object', properties: { a: { $ref: 'https://example.test/missing' } } })).toMatch(/can't resolve reference/);
    expect(userSchemaProblem({ type: 'object', properties: { a: { $ref: '#/definitions/a' } }, definitions: { a: { type: 'string' } } })).toBeNull();
    expect(entries()).toHaveLength(1);
  });

  it('never caches an invalid schema', () => {
    expect(userSchemaProblem({ type: 'object', properties: { a: { type: 'string', pattern: '(' } } })).toMatch(/pattern|Invalid regular expression/);
    expect(() => readdirSync(join(dir, 'schemas'))).toThrow();
  });

  it('lets a second `agentcheck validate` of a build skip loading Ajv (built CLI)', async () => {
    // Not about the CLI's first start: its own entry is there (Ajv is required, never bundled).
    seedCliCodeCache(join(dir, 'code'), ['validate']);
    const validate = () => runCli(['validate', 'fixtures/agents/support-bot.yaml'], undefined, { [CACHE_DIR_ENV]: dir, NODE_DEBUG: 'module' });
    const ajvLoaded = (stderr: string) => /node_modules\/ajv\/dist\/ajv\.js/.test(stderr);
    const first = await validate();
    expect(first.exitCode).toBe(0);
    expect(ajvLoaded(first.stderr)).toBe(true);
    const second = await validate();
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(ajvLoaded(second.stderr)).toBe(false);
  });
});
