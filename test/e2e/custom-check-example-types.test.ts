import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT } from './cli.js';

/** The custom check module docs/custom-checks.md shows (its first ```js block). */
function documentedModule(): string {
  const doc = readFileSync(join(ROOT, 'docs/custom-checks.md'), 'utf8');
  const block = /^```js\n([\s\S]*?)^```/m.exec(doc);
  if (!block) throw new Error('docs/custom-checks.md has no ```js block');
  return block[1];
}

/** tsc on `modules` (file name -> text, under checks/) in a project that installed agentcheck, with the strictest usual options. */
async function typeCheck(modules: Record<string, string>) {
  const project = tempDir({
    'package.json': '{"type":"module"}',
    ...Object.fromEntries(Object.entries(modules).map(([name, text]) => [`checks/${name}`, text])),
    // What users turn on for their own code: checkJs reads the JSDoc types, and
    // noUncheckedIndexedAccess makes `list[0]` possibly undefined; no @types package is listed
    // (TypeScript 7's default): the package's declarations reference Node's types themselves.
    // skipLibCheck, as most projects set it: checking every declaration (Node's own included)
    // doubles the run; the entries' reference to Node's types is checked below instead.
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        allowJs: true,
        checkJs: true,
        noEmit: true,
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        skipLibCheck: true,
        types: [],
      },
      include: ['checks'],
    }),
  });
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'agentcheck'), 'dir');
  return execa(join(ROOT, 'node_modules/.bin/tsc'), ['-p', project], { cwd: project, reject: false });
}

describe('the custom check example of docs/custom-checks.md', () => {
  // One tsc run for both files (each run reads every declaration of the package).
  it('type-checks against the package types under checkJs, strict and noUncheckedIndexedAccess; a wrong status does not', async () => {
    const result = await typeCheck({
      'documented.mjs': documentedModule(),
      'wrong-status.mjs': documentedModule().replace("status: 'fail'", "status: 'failed'"),
    });
    expect(result.exitCode).toBe(2);
    // The only problem is the one planted: the documented module is clean.
    const problems = result.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^checks\/wrong-status\.mjs\(\d+,\d+\): error TS2820: Type '"failed"' is not assignable to type 'CheckStatus'/);
  });

  // Without it, a project with skipLibCheck off (or TypeScript 7, whose `types` default is []) gets
  // "Cannot find namespace 'NodeJS'" from the declarations that use Node's types.
  it("the package's entries reference Node's types, so its declarations need no types entry", () => {
    for (const entry of ['dist/src/index.d.ts', 'dist/src/vitest/index.d.ts']) {
      expect(readFileSync(join(ROOT, entry), 'utf8'), entry).toMatch(/^\/\/\/ <reference types="node" preserve="true" \/>$/m);
    }
  });
});
