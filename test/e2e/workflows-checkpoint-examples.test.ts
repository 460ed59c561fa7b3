import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT } from './cli.js';

/** The build (its ```yaml block) and the ```ts examples of docs/workflows.md, "Checkpoints and resume". */
function documentedExamples(): { build: string; examples: string[] } {
  const doc = readFileSync(join(ROOT, 'docs/workflows.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Checkpoints and resume'), doc.indexOf('\n## ', doc.indexOf('## Checkpoints and resume') + 1));
  const blocks = (lang: string) => [...section.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((match) => match[1]!);
  return { build: blocks('yaml')[0] ?? '', examples: blocks('ts') };
}

/** A project that installed agentcheck (the built package), holding the documented build. */
function project(build: string, files: Record<string, string>): string {
  const dir = tempDir({
    'package.json': '{"type":"module"}',
    'agents/shop-bot.yaml': build,
    ...files,
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: true, types: [] },
      include: ['*.ts'],
    }),
  });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'agentcheck'), 'dir');
  return dir;
}

describe('the checkpoint examples of docs/workflows.md', () => {
  it('type-check as written (strict) and run against the built library: the run pauses, and resuming it completes', async () => {
    const { build, examples } = documentedExamples();
    expect(examples).toHaveLength(2);
    const files = Object.fromEntries(examples.map((code, index) => [`example-${index + 1}.ts`, code]));
    const dir = project(build, files);
    const checked = await execa(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir], { cwd: dir, reject: false });
    expect(checked.exitCode, checked.stdout).toBe(0);
    for (const [index, code] of examples.entries()) {
      const module = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
      writeFileSync(join(dir, `example-${index + 1}.mjs`), module);
      const run = await execa('node', [`example-${index + 1}.mjs`], { cwd: dir, reject: false });
      expect(run.exitCode, run.stderr).toBe(0);
      // What the example's comment says it prints.
      expect(run.stdout).toBe('end_turn Order 1234 is deleted.');
    }
  });
});
