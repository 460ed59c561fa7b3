// `npm run build`: tsc, then the precompiled schemas (scripts/precompile-schemas.mjs reads what tsc
// wrote), and beside them the CLI bundle (scripts/bundle-cli.mjs bundles the TypeScript sources
// itself and needs nothing tsc writes), so the two chains use both cores: the build comes before
// every `npm test` (docs/architecture.md, Build). Exits with the first failing step's code.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Runs `node ...args` in the repository's root with this process's output; resolves to its exit code. */
function node(...args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`build: node ${args.join(' ')}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all([
  node(tsc, '-p', 'tsconfig.build.json').then((code) => code || node('scripts/precompile-schemas.mjs')),
  node('scripts/bundle-cli.mjs'),
]);
process.exitCode = codes.find((code) => code !== 0) ?? 0;
