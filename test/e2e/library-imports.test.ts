import { readdirSync, readFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT } from './cli.js';

/** Every `import { a, b } from 'agentcheck...'` (values, not `import type`) in the README and docs/. */
function documentedImports(): Map<string, Set<string>> {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(/import \{([^}]+)\} from '(agentcheck(?:\/[\w-]+)?)'/g)) {
      const names = imports.get(match[2]) ?? new Set<string>();
      for (const name of match[1].split(',')) if (name.trim()) names.add(name.trim());
      imports.set(match[2], names);
    }
  }
  return imports;
}

describe('the library imports the docs show', () => {
  it('resolve through the package exports of an installed agentcheck', async () => {
    const imports = documentedImports();
    expect([...(imports.get('agentcheck') ?? [])]).toEqual(expect.arrayContaining(['querySpans', 'validateQuery', 'compileQuery']));
    // As a project that installed agentcheck sees it: only the package's exports are reachable.
    const project = tempDir({ 'package.json': '{"type":"module"}' });
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(ROOT, join(project, 'node_modules', 'agentcheck'), 'dir');
    const checks = [...imports].map(
      ([specifier, names]) =>
        `{ const m = await import('${specifier}'); for (const n of ${JSON.stringify([...names])}) if (!(n in m)) missing.push('${specifier}: ' + n); }`,
    );
    writeFileSync(join(project, 'check.mjs'), `const missing = [];\n${checks.join('\n')}\nconsole.log(JSON.stringify(missing));\n`);
    const result = await execa('node', ['check.mjs'], { cwd: project, reject: false });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
  });
});
