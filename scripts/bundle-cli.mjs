// Build step (after tsc and the precompiled schemas): bundles the CLI, bin/agentcheck.ts with its
// dependencies, into dist/bin/ as ES module chunks. Node then reads a few dozen files instead of
// ~200 modules at start-up (a cold `test-run` or `validate` spent most of its time loading
// modules). Commands still load lazily: each dynamic import becomes its own chunk. The library
// (dist/src, the package's exports) stays unbundled. docs/architecture.md, Build.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bin');
// The precompiled format validators (scripts/precompile-schemas.mjs) stay in dist/src; chunks sit
// flat in dist/bin, so one relative path reaches them from any chunk.
const validators = relative(outdir, join(root, 'dist', 'src', 'config', 'format-validators'))
  .split('\\')
  .join('/');

rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: [join(root, 'bin', 'agentcheck.ts')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: '[name]-[hash]',
  // CommonJS dependencies call require() for Node's built-ins; an ES module has none of its own.
  banner: { js: "import { createRequire as __agentcheckRequire } from 'node:module';\nconst require = __agentcheckRequire(import.meta.url);" },
  define: { AGENTCHECK_FORMAT_VALIDATORS: JSON.stringify(`${validators}/`) },
  // Stack traces of a crash stay readable: names and lines are kept, only dead code goes.
  minifySyntax: true,
  legalComments: 'eof',
  logLevel: 'warning',
  metafile: true,
});

// Which sources each chunk holds (not shipped): lets a test see what a command loads, e.g. that
// test-run never pulls in the OpenTelemetry SDK.
const chunkInputs = Object.fromEntries(
  Object.entries(metafile.outputs).map(([file, output]) => [relative(outdir, join(root, file)).split('\\').join('/'), Object.keys(output.inputs).sort()]),
);
writeFileSync(join(root, 'dist', 'cli-chunks.json'), `${JSON.stringify(chunkInputs, null, 1)}\n`);
