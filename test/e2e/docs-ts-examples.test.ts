import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT } from './cli.js';

/** The ```LANG blocks of `doc`, in the section headed `heading` when one is given. */
function codeBlocks(doc: string, lang: string, heading?: string): string[] {
  let text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  if (heading) {
    const start = text.indexOf(heading);
    if (start < 0) throw new Error(`docs/${doc} has no section "${heading}"`);
    const end = text.indexOf('\n## ', start + 1);
    text = text.slice(start, end < 0 ? undefined : end);
  }
  return [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((match) => match[1]!);
}

const customCheck = codeBlocks('custom-checks.md', 'js')[0] ?? '';
const checkpoints = {
  build: codeBlocks('workflows.md', 'yaml', '## Checkpoints and resume')[0] ?? '',
  examples: codeBlocks('workflows.md', 'ts', '## Checkpoints and resume'),
};
const fromCode = codeBlocks('engine-loop.md', 'ts', '## From code')[0] ?? '';

/**
 * One project that installed agentcheck (the built package), holding every documented TypeScript
 * and JSDoc example in a folder of its own, type-checked by one tsc run: each run reads every
 * declaration of the package, so one run for all examples saves the suite seconds of CPU.
 * The options are what users turn on for their own code, the strictest usual ones: checkJs reads
 * the JSDoc types, noUncheckedIndexedAccess makes `list[0]` possibly undefined, and no @types
 * package is listed (TypeScript 7's default): the package's declarations reference Node's types
 * themselves. skipLibCheck, as most projects set it (checking Node's own declarations doubles the
 * run); the entries' reference to Node's types is checked below instead.
 */
const project = shared(async (dir) => {
  const root = dir({
    'package.json': '{"type":"module"}',
    'checks/documented.mjs': customCheck,
    'checks/wrong-status.mjs': customCheck.replace("status: 'fail'", "status: 'failed'"),
    'workflows/agents/shop-bot.yaml': checkpoints.build,
    ...Object.fromEntries(checkpoints.examples.map((code, index) => [`workflows/example-${index + 1}.ts`, code])),
    'engine-loop/example.ts': fromCode,
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
      include: ['checks', 'workflows', 'engine-loop'],
    }),
  });
  // The fixtures the engine-loop example names, relative to where it runs.
  mkdirSync(join(root, 'engine-loop/fixtures/agents'), { recursive: true });
  cpSync(join(ROOT, 'fixtures/agents/support-bot.yaml'), join(root, 'engine-loop/fixtures/agents/support-bot.yaml'));
  cpSync(join(ROOT, 'fixtures/workspaces/shop'), join(root, 'engine-loop/fixtures/workspaces/shop'), { recursive: true });
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(ROOT, join(root, 'node_modules', 'agentcheck'), 'dir');
  const checked = await execa(join(ROOT, 'node_modules/.bin/tsc'), ['-p', root], { cwd: root, reject: false });
  const problems = checked.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  return { root, checked, problems };
});

/** The tsc problems reported in files under `folder`. */
async function problemsIn(folder: string): Promise<string[]> {
  return (await project()).problems.filter((line) => line.startsWith(`${folder}/`));
}

/** Runs a TypeScript example with node after stripping its types, from `cwd` under the project. */
async function runExample(cwd: string, code: string) {
  const { root } = await project();
  const module = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  writeFileSync(join(root, cwd, 'run-example.mjs'), module);
  return execa('node', ['run-example.mjs'], { cwd: join(root, cwd), reject: false });
}

describe('the TypeScript and JSDoc examples of docs/ (one tsc run, the strictest usual options)', () => {
  it('every problem tsc reports is one planted below: the documented examples are clean', async () => {
    const { checked, problems } = await project();
    expect(checked.exitCode, checked.stdout).toBe(2);
    expect(problems, checked.stdout).toHaveLength(1);
  });

  it('the custom check module of docs/custom-checks.md type-checks under checkJs; a wrong status does not', async () => {
    expect(customCheck).not.toBe('');
    expect(await problemsIn('checks')).toEqual([
      expect.stringMatching(/^checks\/wrong-status\.mjs\(\d+,\d+\): error TS2820: Type '"failed"' is not assignable to type 'CheckStatus'/),
    ]);
  });

  // A project without @types/node and with skipLibCheck off (or on TypeScript 7, whose `types`
  // default is []) got "Cannot find type definition file for 'node'" or "Cannot find namespace 'NodeJS'".
  it("the package's declarations need no @types/node: a project using both entries type-checks without it, skipLibCheck off", async () => {
    const root = tempDir({
      'package.json': '{"type":"module"}',
      'tsconfig.json': JSON.stringify({
        // preserveSymlinks: the packages below are linked from this checkout, whose own
        // node_modules/@types/node must not be found upward of them.
        compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [], preserveSymlinks: true },
        include: ['uses.ts'],
      }),
      'uses.ts': [
        "import { expect, it } from 'vitest';",
        "import * as library from 'agentcheck';",
        "import type { CustomCheckFunction, Report, RunLoadedScenarioOptions } from 'agentcheck';",
        "import { runScenario, scenarios, testRun, type ScenarioRow } from 'agentcheck/vitest';",
        "scenarios('tests/*.scenarios.yaml');",
        "it('runs', async () => {",
        "  const row: ScenarioRow = await runScenario('tests/a.scenarios.yaml', 'a', { signal: new AbortController().signal });",
        '  expect(row).toPass();',
        "  expect(await testRun({ agent: 'agent.yaml', inputs: { messages: [{ role: 'user', content: 'hi' }] } })).toHaveCalledTool('lookup');",
        '});',
        'export const used: [typeof library, CustomCheckFunction?, Report?, RunLoadedScenarioOptions?] = [library];',
        '',
      ].join('\n'),
    });
    // node_modules as npm would lay it out without @types/node: this checkout's packages, and
    // agentcheck itself as installed (its package.json and dist, no node_modules of its own).
    const modules = join(root, 'node_modules');
    mkdirSync(join(modules, '@types'), { recursive: true });
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name !== '@types') symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
    }
    for (const name of readdirSync(join(ROOT, 'node_modules/@types'))) {
      if (name !== 'node') symlinkSync(join(ROOT, 'node_modules/@types', name), join(modules, '@types', name));
    }
    mkdirSync(join(modules, 'agentcheck'));
    for (const name of ['package.json', 'dist']) symlinkSync(join(ROOT, name), join(modules, 'agentcheck', name));
    // In this process, and only agentcheck's own declarations and uses.ts checked in full: what
    // they lack would show there, and checking every library's declarations (vitest's, the MCP
    // SDK's) in a tsc of its own cost about 7 s of the suite's CPU.
    const program = ts.createProgram([join(root, 'uses.ts')], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: [],
      preserveSymlinks: true,
      // As tsc -p finds them from the project's folder (the default is this process's folder, whose @types/node is there).
      typeRoots: [join(modules, '@types')],
    });
    const own = program
      .getSourceFiles()
      .filter((file) => file.fileName === join(root, 'uses.ts') || file.fileName.startsWith(join(modules, 'agentcheck') + '/'));
    // The entries, and the declarations they reach, are in the program (a module not found would leave them out).
    expect(own.map((file) => file.fileName.slice(root.length + 1))).toEqual(
      expect.arrayContaining(['uses.ts', 'node_modules/agentcheck/dist/src/index.d.ts', 'node_modules/agentcheck/dist/src/vitest/index.d.ts']),
    );
    const problems = own
      .flatMap((file) => ts.getPreEmitDiagnostics(program, file))
      .map((diagnostic) => ts.formatDiagnostic(diagnostic, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
    expect([...new Set(problems)]).toEqual([]);
  });

  it('the checkpoint examples of docs/workflows.md type-check as written and run: the run pauses, and resuming it completes', async () => {
    expect(checkpoints.examples).toHaveLength(2);
    expect(await problemsIn('workflows')).toEqual([]);
    for (const code of checkpoints.examples) {
      const run = await runExample('workflows', code);
      expect(run.exitCode, run.stderr).toBe(0);
      // What the example's comment says it prints.
      expect(run.stdout).toBe('end_turn Order 1234 is deleted.');
    }
  });

  it('the From code example of docs/engine-loop.md type-checks as written and runs, in a folder holding the fixtures it names', async () => {
    expect(fromCode).not.toBe('');
    expect(await problemsIn('engine-loop')).toEqual([]);
    // The example prints nothing: the line added here shows the turn it ran.
    const run = await runExample('engine-loop', `${fromCode}\nconsole.log(turn.stop_reason, turn.output);\n`);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe('end_turn Order 1234 was delivered.');
  });
});
