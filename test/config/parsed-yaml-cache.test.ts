import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_DIR_ENV } from '../../src/config/cache-folder.js';
import { parseSourceText } from '../../src/config/parse-source-text.js';
import { exactInJson, MAX_ENTRIES, MIN_CACHED_CHARS, pruneYamlEntries } from '../../src/config/parsed-yaml-cache.js';
import { SourceDocument } from '../../src/config/source.js';
import { runCli } from '../e2e/cli.js';
import { seedCliCodeCache } from '../helpers/seed-cli-code-cache.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
const saved = process.env[CACHE_DIR_ENV];
beforeEach(() => {
  dir = tempDir();
  process.env[CACHE_DIR_ENV] = dir;
});
afterEach(() => {
  if (saved === undefined) delete process.env[CACHE_DIR_ENV];
  else process.env[CACHE_DIR_ENV] = saved;
});
const entries = () => {
  try {
    return readdirSync(join(dir, 'yaml'));
  } catch {
    return [];
  }
};

/** An entry as the cache writes it: a checksum line (of the entry's name and the JSON), then the JSON. */
function entryText(entry: string, value: unknown): string {
  const json = JSON.stringify(value);
  return `${createHash('sha256')
    .update(`${basename(entry)}\n`)
    .update(json)
    .digest('hex')}\n${json}`;
}

/** A scenarios file of `count` scenarios, over MIN_CACHED_CHARS when count is 100. */
function scenariosText(count: number, extra = ''): string {
  const lines = ['defaults:', '  agent: agent.yaml', 'scenarios:'];
  for (let i = 0; i < count; i++)
    lines.push(`  - name: case ${i}`, `    inputs: {messages: [{role: user, content: "Refund order ${i}"}]}`, `    tags: [t${i % 3}]`);
  return `${lines.join('\n')}\n${extra}`;
}

describe('the parsed-YAML cache', () => {
  it('keeps the value of a large file read without problems, owner-readable only, and reads it back the same', () => {
    const text = scenariosText(100);
    expect(text.length).toBeGreaterThan(MIN_CACHED_CHARS);
    const first = parseSourceText('suite.scenarios.yaml', text, false);
    expect(entries()).toHaveLength(1);
    const entry = join(dir, 'yaml', entries()[0]!);
    expect(statSync(entry).mode & 0o777).toBe(0o600);
    const second = parseSourceText('suite.scenarios.yaml', text, false);
    expect(second.value).toEqual(first.value);
    expect(JSON.stringify(second.value)).toBe(JSON.stringify(first.value));
    expect(second.located).toBeNull();
    expect(entries()).toHaveLength(1);
  });

  it('reads a text it has an entry for from the entry, not the parser', () => {
    const text = scenariosText(100);
    parseSourceText('a.scenarios.yaml', text, false);
    // The entry is what a later read returns: proven by giving it a value the text does not hold.
    const entry = join(dir, 'yaml', entries()[0]!);
    writeFileSync(entry, entryText(entry, { from: 'the entry' }));
    expect(parseSourceText('a.scenarios.yaml', text, false).value).toEqual({ from: 'the entry' });
    // Another text (one character more) is another entry.
    expect(parseSourceText('a.scenarios.yaml', `${text}\n`, false).value).toEqual(expect.objectContaining({ defaults: { agent: 'agent.yaml' } }));
    expect(entries()).toHaveLength(2);
  });

  it('reads a damaged entry as no entry (its checksum no longer matches), and replaces it', () => {
    const text = scenariosText(100);
    const value = parseSourceText('a.scenarios.yaml', text, false).value;
    const entry = join(dir, 'yaml', entries()[0]!);
    const whole = readFileSync(entry, 'utf8');
    // One byte changed in the value, the JSON still valid; then the entry cut short.
    for (const damaged of [whole.replace('"Refund order 7"', '"Refund order 8"'), whole.slice(0, -10), '{}', 'null']) {
      expect(damaged).not.toBe(whole);
      writeFileSync(entry, damaged);
      expect(parseSourceText('a.scenarios.yaml', text, false).value).toEqual(value);
      expect(readFileSync(entry, 'utf8')).toBe(whole);
    }
  });

  it("does not use another text's entry copied under this text's name", () => {
    const text = scenariosText(100);
    const other = scenariosText(101);
    parseSourceText('a.scenarios.yaml', text, false);
    const [first] = entries();
    parseSourceText('b.scenarios.yaml', other, false);
    const second = entries().find((name) => name !== first)!;
    writeFileSync(join(dir, 'yaml', first!), readFileSync(join(dir, 'yaml', second), 'utf8'));
    expect((parseSourceText('a.scenarios.yaml', text, false).value as { scenarios: unknown[] }).scenarios).toHaveLength(100);
  });

  it('never blocks on an entry that is a FIFO, or a link to a device, and parses the text instead', async () => {
    const text = scenariosText(100);
    const value = parseSourceText('a.scenarios.yaml', text, false).value;
    const entry = join(dir, 'yaml', entries()[0]!);
    await execa('rm', [entry]);
    await execa('mkfifo', [entry]);
    expect(parseSourceText('a.scenarios.yaml', text, false).value).toEqual(value);
    await execa('rm', [entry]);
    symlinkSync('/dev/zero', entry);
    expect(parseSourceText('a.scenarios.yaml', text, false).value).toEqual(value);
  });

  it('keeps nothing for a short text, a text with anchors, a syntax error, or with the cache off', () => {
    parseSourceText('small.yaml', 'id: x\nagent: {name: A}\n', false);
    const anchored = `${scenariosText(100)}shared: &s {a: 1}\nagain: *s\n`;
    expect(parseSourceText('anchored.yaml', anchored, false).value).toMatchObject({ again: { a: 1 } });
    const broken = `${scenariosText(100)}bad: [unclosed\n`;
    expect(() => parseSourceText('broken.yaml', broken, false)).toThrow(/broken\.yaml:\d+:\d+: is not valid YAML/);
    expect(() => parseSourceText('broken.yaml', broken, false)).toThrow(/broken\.yaml:\d+:\d+: is not valid YAML/);
    expect(entries()).toEqual([]);
    process.env[CACHE_DIR_ENV] = 'off';
    parseSourceText('big.yaml', scenariosText(100), false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps nothing for values JSON cannot hold exactly (.nan, .inf, -0), which read the same every time', () => {
    for (const extra of ['limit: .nan\n', 'limit: -.inf\n', 'limit: -0.0\n']) {
      const text = scenariosText(100, extra);
      const first = parseSourceText('n.yaml', text, false).value as { limit: number };
      const again = parseSourceText('n.yaml', text, false).value as { limit: number };
      expect(Object.is(first.limit, again.limit)).toBe(true);
      expect(Number.isFinite(first.limit) && !Object.is(first.limit, -0)).toBe(false);
    }
    expect(entries()).toEqual([]);
  });

  it('tells values JSON holds exactly from those it does not', () => {
    expect(exactInJson({ a: [1, 'x', true, null, { b: 2.5 }], __proto__x: 1 })).toBe(true);
    expect(exactInJson(JSON.parse('{"__proto__": {"polluted": 1}}'))).toBe(true);
    for (const value of [NaN, Infinity, -0, undefined, [1, NaN], { a: { b: -Infinity } }, new Date(0), Object.create(null), () => 1])
      expect(exactInJson(value)).toBe(false);
  });

  it('reports the same located problems for a file read from its entry', () => {
    const text = scenariosText(100, 'unknown_key: 1\n');
    const read = () => SourceDocument.parse('x.scenarios.yaml', text).error(['scenarios', 42, 'tags'], 'expected something else').message;
    const first = read();
    expect(entries()).toHaveLength(1);
    expect(read()).toBe(first);
    expect(first).toMatch(/x\.scenarios\.yaml:\d+:\d+/);
  });

  it('removes the oldest entries past MAX_ENTRIES, down to three quarters', () => {
    const folder = join(dir, 'yaml-prune');
    mkdirSync(folder);
    const files = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => tempFileIn(folder, `${String(i).padStart(4, '0')}.json`, i));
    pruneYamlEntries(folder);
    const left = readdirSync(folder).sort();
    expect(left).toHaveLength(Math.floor((MAX_ENTRIES * 3) / 4));
    // The newest are kept.
    expect(left.at(-1)).toBe(files.at(-1));
    expect(left[0]).toBe(files[files.length - left.length]);
    // Under the limit, nothing goes.
    pruneYamlEntries(folder);
    expect(readdirSync(folder)).toHaveLength(left.length);
  });

  it('makes a second run of a large suite read its files from the cache, with the same report', async () => {
    const project = tempDir({
      'agent.yaml': `id: bot\nagent:\n  name: Bot\n  llm: {provider: scripted, model: m}\n  tools:\n    - {name: finish, description: Finish., parameters: {type: object}, returns: {ok: true}}\n`,
      'big.scenarios.yaml': scenariosText(100).replace(
        / {4}tags: \[t(\d)\]/g,
        '    tags: [t$1]\n    model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: ok}]}\n    expect: {terminal_tool: finish}',
      ),
    });
    const cache = join(project, 'cache');
    // Not about the CLI's first start: its own code cache entry is there.
    seedCliCodeCache(join(cache, 'code'), ['run']);
    const run = (out: string) => runCli(['run', '.', '--reporter', 'json', '--out', out], project, { [CACHE_DIR_ENV]: cache });
    const first = await run('out1');
    expect(first.exitCode, first.all).toBe(0);
    expect(readdirSync(join(cache, 'yaml'))).toHaveLength(1);
    // The CLI (bundled, with its own js-yaml) reads the entry: the second run is given one whose
    // first name is changed, the entry whole (a byte changed without its checksum would be parsed
    // over). It runs that name, and every other row of its report is the first run's.
    const entry = join(cache, 'yaml', readdirSync(join(cache, 'yaml'))[0]!);
    const kept = readFileSync(entry, 'utf8');
    writeFileSync(entry, entryText(entry, JSON.parse(kept.slice(kept.indexOf('\n') + 1).replace('"case 0"', '"case zero"'))));
    const second = await run('out2');
    expect(second.exitCode, second.all).toBe(0);
    const report = (out: string) =>
      (
        JSON.parse(readFileSync(join(project, out, 'report.json'), 'utf8')) as {
          scenarios: Array<{ id: string; name: string; status: string; checks: unknown }>;
        }
      ).scenarios;
    const rows = (out: string) => report(out).map(({ id, status, checks }) => ({ id, status, checks }));
    const names = report('out2').map(({ name }) => name);
    expect(names).toContain('case zero');
    expect(names).not.toContain('case 0');
    // The scenario's id is its file and name.
    expect(rows('out2')).toEqual(rows('out1').map((row) => (row.id.endsWith('#case 0') ? { ...row, id: row.id.replace('#case 0', '#case zero') } : row)));
    expect(rows('out1')).toHaveLength(100);
  });
  it('keeps its entries out of a suite that holds the cache folder: validate of the folder reads none of them', async () => {
    // A large agent build: its kept value has a build's top-level keys, which validate looks for in any .json file.
    const tools = Array.from(
      { length: 150 },
      (_, i) => `    - {name: tool_${i}, description: "Looks order ${i} up in the shop's records.", returns: {ok: true}}`,
    );
    const files = {
      'agent.yaml': `id: bot\nagent:\n  name: Bot\n  llm: {provider: scripted, model: m}\n  tools:\n${tools.join('\n')}\n`,
      'big.scenarios.yaml': scenariosText(100),
    };
    const project = tempDir(files);
    // The entries a first validate would keep, made here rather than by a process of its own: the
    // CLI names them as the sources do (the same js-yaml; it writes none of its own: the same two,
    // untouched, after it ran), so its validate starts with them in the folder it reads.
    process.env[CACHE_DIR_ENV] = join(project, 'cache');
    for (const [name, text] of Object.entries(files)) parseSourceText(name, text, false);
    expect(readdirSync(join(project, 'cache', 'yaml'))).toHaveLength(2);
    const kept = readdirSync(join(project, 'cache', 'yaml')).map((name) => statSync(join(project, 'cache', 'yaml', name)).mtimeMs);
    seedCliCodeCache(join(project, 'cache', 'code'), ['validate']);
    const result = await runCli(['validate', '.'], project, { [CACHE_DIR_ENV]: join(project, 'cache') });
    expect(result.exitCode, result.all).toBe(0);
    expect(readdirSync(join(project, 'cache', 'yaml')).map((name) => statSync(join(project, 'cache', 'yaml', name)).mtimeMs)).toEqual(kept);
  });
});

function tempFileIn(folder: string, name: string, age: number): string {
  const file = join(folder, name);
  writeFileSync(file, '{}', { flag: 'w' });
  // Older first: entry 0 is the oldest.
  const time = new Date(Date.UTC(2026, 0, 1) + age * 1000);
  utimesSync(file, time, time);
  return name;
}
