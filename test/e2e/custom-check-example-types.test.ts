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

/** tsc on `module` as checks/c.mjs of a project that installed agentcheck, with the strictest usual options. */
async function typeCheck(module: string) {
  const project = tempDir({
    'package.json': '{"type":"module"}',
    'checks/c.mjs': module,
    // What users turn on for their own code: checkJs reads the JSDoc types, and
    // noUncheckedIndexedAccess makes `list[0]` possibly undefined. The package's own declarations
    // are checked too (no skipLibCheck), with no @types package listed (TypeScript 7's default):
    // they reference Node's types themselves.
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
        skipLibCheck: false,
        types: [],
      },
      include: ['checks'],
    }),
  });
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'agentcheck'), 'dir');
  return execa(join(ROOT, 'node_modules/.bin/tsc'), ['-p', project], { reject: false });
}

describe('the custom check example of docs/custom-checks.md', () => {
  it('type-checks against the package types under checkJs, strict and noUncheckedIndexedAccess, the declarations included', async () => {
    const result = await typeCheck(documentedModule());
    expect(result.stdout + result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });

  it('is really held to the types: a wrong status is a type error', async () => {
    const result = await typeCheck(documentedModule().replace("status: 'fail'", "status: 'failed'"));
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toContain("Type '\"failed\"' is not assignable to type 'CheckStatus'");
  });
});
