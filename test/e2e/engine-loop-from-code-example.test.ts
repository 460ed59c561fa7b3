import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT } from './cli.js';

/** The ```ts block of docs/engine-loop.md, "From code". */
function documentedExample(): string {
  const doc = readFileSync(join(ROOT, 'docs/engine-loop.md'), 'utf8');
  const start = doc.indexOf('## From code');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return /^```ts\n([\s\S]*?)^```/m.exec(section)?.[1] ?? '';
}

describe('the From code example of docs/engine-loop.md', () => {
  it('type-checks as written (strict) and runs against the built library, in a project holding the fixtures it names', async () => {
    const code = documentedExample();
    const dir = tempDir({
      'package.json': '{"type":"module"}',
      'example.ts': code,
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: true, types: [] },
        include: ['*.ts'],
      }),
    });
    mkdirSync(join(dir, 'fixtures/agents'), { recursive: true });
    cpSync(join(ROOT, 'fixtures/agents/support-bot.yaml'), join(dir, 'fixtures/agents/support-bot.yaml'));
    cpSync(join(ROOT, 'fixtures/workspaces/shop'), join(dir, 'fixtures/workspaces/shop'), { recursive: true });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'agentcheck'), 'dir');
    const checked = await execa(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir], { cwd: dir, reject: false });
    expect(checked.exitCode, checked.stdout).toBe(0);
    // The example prints nothing: the line added here shows the turn it ran.
    const module = ts.transpileModule(`${code}\nconsole.log(turn.stop_reason, turn.output);\n`, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(dir, 'example.mjs'), module);
    const run = await execa('node', ['example.mjs'], { cwd: dir, reject: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe('end_turn Order 1234 was delivered.');
  });
});
