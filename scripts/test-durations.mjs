// Writes test/durations.json, the test files' durations the test sequencer falls back on when
// vitest has none cached (a fresh checkout): from vitest's cache of the last run, rounded to 100 ms
// and sorted by file, so the committed file changes little between runs. Run after a full
// `npx vitest run` on a quiet machine: node scripts/test-durations.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const cacheDir = join(root, 'node_modules/.vite/vitest');
const durations = {};
for (const folder of readdirSync(cacheDir)) {
  let text;
  try {
    text = readFileSync(join(cacheDir, folder, 'results.json'), 'utf8');
  } catch {
    continue;
  }
  for (const [key, result] of JSON.parse(text).results) {
    if (typeof result?.duration === 'number' && result.duration > 0) durations[key] = Math.max(100, Math.round(result.duration / 100) * 100);
  }
}
const keys = Object.keys(durations).sort();
if (keys.length === 0) throw new Error(`no durations in ${cacheDir}: run the tests first (npx vitest run)`);
writeFileSync(join(root, 'test/durations.json'), `${JSON.stringify(Object.fromEntries(keys.map((key) => [key, durations[key]])), null, 1)}\n`);
console.log(`test/durations.json: ${keys.length} files`);
