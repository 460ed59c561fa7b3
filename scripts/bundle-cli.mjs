// Build step (after tsc and the precompiled schemas): bundles the CLI, bin/cli.ts with its
// dependencies, into one CommonJS script, dist/bin/cli.cjs, and the launcher bin/agentcheck.ts
// into dist/bin/agentcheck.js, which runs that script through V8's code cache. Node 20 compiles
// ES modules anew at every start (module.enableCompileCache needs Node 22.1) and a cold start
// spent most of its time loading and compiling modules; from the cache, a command compiles almost
// nothing. Modules still initialise lazily: each dynamic import becomes a call that runs its
// module's code the first time. The library (dist/src, the package's exports) stays unbundled.
// docs/architecture.md, Build.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bin');
const script = join(outdir, 'cli.cjs');
// The precompiled format validators (scripts/precompile-schemas.mjs) stay in dist/src; the
// bundle sits in dist/bin, so one relative path reaches them.
const validators = relative(outdir, join(root, 'dist', 'src', 'config', 'format-validators'))
  .split('\\')
  .join('/');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // The sources are ES modules, strict throughout; "use strict" must come first to hold. Then
  // import.meta.url of the sources, in a CommonJS file.
  banner: { js: "'use strict';\nvar __agentcheckUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Dead code and whitespace go, which makes the script a quarter smaller to read at every start;
  // names are kept, so a crash's stack trace still names its functions.
  minifySyntax: true,
  minifyWhitespace: true,
  // Non-ASCII characters are escaped: the launcher reads the script as latin1, which is faster
  // than UTF-8 and the same for ASCII text.
  charset: 'ascii',
  legalComments: 'eof',
  logLevel: 'warning',
};

rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
  ...common,
  entryPoints: [join(root, 'bin', 'cli.ts')],
  outfile: script,
  // import() of a bundled module or a built-in becomes a lazy require(); the one import() that
  // must stay (a user's ES module) goes through the launcher's (AGENTCHECK_IMPORT).
  supported: { 'dynamic-import': false },
  // The launcher runs the script with __filename and __agentcheckImport in scope (bin/agentcheck.ts).
  define: {
    'import.meta.url': '__agentcheckUrl',
    AGENTCHECK_IMPORT: '__agentcheckImport',
    AGENTCHECK_FORMAT_VALIDATORS: JSON.stringify(`${validators}/`),
    // The js-yaml bundled, which keys the parsed-YAML cache (src/config/parsed-yaml-cache.ts).
    AGENTCHECK_YAML_PARSER: JSON.stringify(`js-yaml@${JSON.parse(readFileSync(join(root, 'node_modules', 'js-yaml', 'package.json'), 'utf8')).version}`),
  },
  metafile: true,
});

const hash = createHash('sha256').update(readFileSync(script)).digest('hex');
await build({
  ...common,
  entryPoints: [join(root, 'bin', 'agentcheck.ts')],
  outfile: join(outdir, 'agentcheck.js'),
  define: { 'import.meta.url': '__agentcheckUrl', AGENTCHECK_CLI_HASH: JSON.stringify(hash) },
});
// The launcher is CommonJS too, though the package is "type": "module": Node then starts it
// without setting up its ES module loader, which took about a tenth of a cold `--help`.
writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);

// The help of the program and of each command, rendered now as a pipe or a file receives it: the
// launcher prints these without loading the CLI (bin/prerendered-help.ts). Rendered by the launcher
// before help.json exists, so by the CLI itself.
const texts = {};
const renderHelp = async (words) => {
  const { stdout } = await promisify(execFile)(process.execPath, [join(outdir, 'agentcheck.js'), ...words, '--help']);
  texts[words.join(' ')] = stdout;
  await Promise.all(listedCommands(stdout).map((name) => renderHelp([...words, name])));
};
// The commands a help text lists (its "Commands:" section, one per line), but `help` itself.
const listedCommands = (help) =>
  (help.split('\n\nCommands:\n')[1] ?? '')
    .split('\n\n')[0]
    .split('\n')
    .flatMap((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1] ?? [])
    .filter((name) => name !== 'help');
await renderHelp([]);
writeFileSync(
  join(outdir, 'help.json'),
  `${JSON.stringify({ cli: hash, size: statSync(script).size, texts: Object.fromEntries(Object.entries(texts).sort(([a], [b]) => (a < b ? -1 : 1))) })}\n`,
);

// Which sources the script holds (not shipped): lets a test see what went into the bundle.
const inputs = Object.fromEntries(
  Object.entries(metafile.outputs).map(([file, output]) => [relative(outdir, join(root, file)).split('\\').join('/'), Object.keys(output.inputs).sort()]),
);
writeFileSync(join(root, 'dist', 'cli-chunks.json'), `${JSON.stringify(inputs, null, 1)}\n`);
