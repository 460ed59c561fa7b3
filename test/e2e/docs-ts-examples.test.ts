import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { shared } from '../helpers/shared-fixture.js';
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

/** What uses.ts imports: both entries, their types and the matchers, as a vitest project would. */
const USES = [
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
].join('\n');

/**
 * One project that installed agentcheck (the built package) the way npm lays it out without
 * @types/node, holding every documented TypeScript and JSDoc example in a folder of its own and
 * uses.ts (both entries), type-checked by one program in this process: each check reads every
 * declaration of the package and of vitest, so one program for all saves the suite seconds of CPU
 * (a tsc of its own for the examples cost about 2.5 s more, and its start).
 * The options are what users turn on for their own code, the strictest usual ones: checkJs reads
 * the JSDoc types, noUncheckedIndexedAccess makes `list[0]` possibly undefined, and no @types
 * package is listed (TypeScript 7's default): the package's declarations reference Node's types
 * themselves. Problems are taken as tsc -p gives them, except that of the declarations only
 * agentcheck's are checked (skipLibCheck off for them alone: checking every library's, Node's
 * included, in a tsc of its own cost about 7 s).
 */
const project = shared(async (dir) => {
  const root = dir({
    'package.json': '{"type":"module"}',
    'checks/documented.mjs': customCheck,
    'checks/wrong-status.mjs': customCheck.replace("status: 'fail'", "status: 'failed'"),
    'workflows/agents/shop-bot.yaml': checkpoints.build,
    ...Object.fromEntries(checkpoints.examples.map((code, index) => [`workflows/example-${index + 1}.ts`, code])),
    'engine-loop/example.ts': fromCode,
    'uses.ts': USES,
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
        // The packages below are linked from this checkout, whose own node_modules/@types/node
        // must not be found upward of them.
        preserveSymlinks: true,
      },
      include: ['checks', 'workflows', 'engine-loop', 'uses.ts'],
    }),
  });
  // The fixtures the engine-loop example names, relative to where it runs.
  mkdirSync(join(root, 'engine-loop/fixtures/agents'), { recursive: true });
  cpSync(join(ROOT, 'fixtures/agents/support-bot.yaml'), join(root, 'engine-loop/fixtures/agents/support-bot.yaml'));
  cpSync(join(ROOT, 'fixtures/workspaces/shop'), join(root, 'engine-loop/fixtures/workspaces/shop'), { recursive: true });
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

  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  // As tsc -p finds them from the project's folder (the default is this process's folder, whose @types/node is there).
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, typeRoots: [join(modules, '@types')] } });
  // The project's files and agentcheck's declarations: not TypeScript's lib files, nor other packages'.
  const own = program
    .getSourceFiles()
    .filter(
      (file) =>
        file.fileName.startsWith(root + '/') && (!file.fileName.startsWith(modules + '/') || file.fileName.startsWith(join(modules, 'agentcheck') + '/')),
    );
  const diagnostics = [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...own.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  // tsc's own lines (`file(line,col): error TSnnnn: ...`), paths from the project's folder.
  const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  const problems = [...new Set(diagnostics.map((diagnostic) => ts.formatDiagnostic(diagnostic, host).trimEnd()))];
  const files = {
    roots: config.fileNames.map((file) => file.slice(root.length + 1)).sort(),
    own: own.map((file) => file.fileName.slice(root.length + 1)),
  };
  return { root, problems, files };
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

describe('the TypeScript and JSDoc examples of docs/ (one program, the strictest usual options)', () => {
  it('every problem the type-check reports is one planted below: the documented examples are clean', async () => {
    const { problems, files } = await project();
    // The include found every example (a folder it missed would leave its problems unreported).
    expect(files.roots).toEqual([
      'checks/documented.mjs',
      'checks/wrong-status.mjs',
      'engine-loop/example.ts',
      'uses.ts',
      ...checkpoints.examples.map((_, index) => `workflows/example-${index + 1}.ts`),
    ]);
    expect(problems, problems.join('\n')).toHaveLength(1);
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
    const { problems, files } = await project();
    // The entries, and the declarations they reach, are in the program (a module not found would leave them out).
    expect(files.own).toEqual(
      expect.arrayContaining(['uses.ts', 'node_modules/agentcheck/dist/src/index.d.ts', 'node_modules/agentcheck/dist/src/vitest/index.d.ts']),
    );
    expect(problems.filter((line) => line.startsWith('uses.ts') || line.startsWith('node_modules/'))).toEqual([]);
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
