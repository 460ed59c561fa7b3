import { readdirSync, readFileSync } from 'node:fs';
import { configErrorOf } from '../helpers/config-error.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseWithYaml } from 'yaml';
import { ConfigError } from '../../src/config/errors.js';
import { formatPath, PathKey, SourceDocument } from '../../src/config/source.js';

const ROOT = join(import.meta.dirname, '../..');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('SourceDocument', () => {
  it('reads every shipped YAML file to the same value as the located parser', () => {
    const files = [...yamlFiles(join(ROOT, 'scenarios')), ...yamlFiles(join(ROOT, 'fixtures/agents'))];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(SourceDocument.parse(file, text).value, file).toEqual(parseWithYaml(text) ?? null);
    }
  });

  it('keeps YAML 1.2 core scalars: no timestamps, no 1.1 booleans', () => {
    const doc = SourceDocument.parse('x.yaml', 'a: 2024-01-01\nb: yes\nc: ~\nd: 0x1F\ne: "1"\n');
    expect(doc.value).toEqual({ a: '2024-01-01', b: 'yes', c: null, d: 31, e: '1' });
  });

  it('locates values in a document read by the fast parser', () => {
    const doc = SourceDocument.parse('x.yaml', 'agent:\n  tools:\n    - name: a\n    - name: b\n      returns: 1\n');
    expect(doc.locate(['agent', 'tools', 1, 'returns'])).toEqual({ line: 5, column: 16 });
    expect(doc.locateKey(['agent', 'tools', 1, 'returns'])).toEqual({ line: 5, column: 7 });
    expect(doc.error(['agent', 'tools', 1], 'bad').message).toBe('x.yaml:4:7 at agent.tools[1]: bad');
  });

  it('quotes a key with a control character or a bidi override in a path, as a value is quoted, so none reaches the terminal raw', () => {
    expect(formatPath(['expect', '\u001b[2J\u001b[31mFAKE', 0, 'a\u202eb', 'plain'])).toBe('expect["\\u001b[2J\\u001b[31mFAKE"][0]["a\\u202eb"].plain');
    expect(formatPath(['\u009b2J'])).toBe('["\\u009b2J"]');
    // A key that is no plain name (empty, a dot or a bracket anywhere, a space, a quote) is quoted
    // in brackets: written out it would read as another path.
    expect(formatPath(['approvals', 'tools', ''])).toBe('approvals.tools[""]');
    expect(formatPath(['', 0, 'a.', '.b', 'a..b', 'c]', 'd e', 'x"y', 'send-email'])).toBe('[""][0]["a."][".b"]["a..b"]["c]"]["d e"]["x\\"y"].send-email');
    expect(formatPath(['approvals', 'tools', 'x.y', 'a[0]'])).toBe('approvals.tools["x.y"]["a[0]"]');
    expect(formatPath(['headers', 'X.Y'])).toBe('headers["X.Y"]');
    // Every quote the rule names: a double quote, a single quote and a backquote.
    expect(formatPath(['approvals', 'tools', "q'uote", 'b`t', 'o"k'])).toBe('approvals.tools["q\'uote"]["b`t"]["o\\"k"]');
    expect(formatPath(['set', new PathKey("agent.q'x"), 'ok'])).toBe('set["agent.q\'x"].ok');
    // Only a delta's set key (a PathKey) reads as the path it is; a plain key under it is still quoted.
    expect(formatPath(['set', 'agent.tools[name=lookup_order]', 'permision'])).toBe('set["agent.tools[name=lookup_order]"].permision');
    expect(formatPath(['set', new PathKey('agent.tools[name=lookup_order]'), 'permision'])).toBe('set.agent.tools[name=lookup_order].permision');
    expect(formatPath(['set', new PathKey('agent'), 'x.y'])).toBe('set.agent["x.y"]');
    expect(formatPath(['set', new PathKey('agent..x'), 0])).toBe('set["agent..x"][0]');
    // A path written as text (not through formatPath) is escaped where the message is made.
    expect(new ConfigError({ file: 'x.yaml', path: 'secrets.\u001b]0;title\u0007' }, 'bad').message).toBe('x.yaml at secrets.\\u001b]0;title\\u0007: bad');
    const doc = SourceDocument.parse('x.yaml', 'a:\n  "\\e[2Jkey\\u202e": 1\n');
    expect(doc.error(['a', '\u001b[2Jkey\u202e'], 'bad').message).toBe('x.yaml:2:21 at a["\\u001b[2Jkey\\u202e"]: bad');
  });

  it('reports syntax errors and duplicate keys with the located parser', () => {
    expect(() => SourceDocument.parse('x.yaml', 'a: 1\na: 2\n')).toThrow(
      'x.yaml:2:1 at a: the key "a" is given twice in one mapping (first at line 1); remove one',
    );
    // Every duplicate in one pass, each at its path.
    expect(() => SourceDocument.parse('x.yaml', 'top:\n  list:\n    - {k: 1, k: 2}\n  n: 1\n  n: 2\n')).toThrow(
      /x\.yaml:3:14 at top\.list\[0\]\.k: the key "k" is given twice[\s\S]*x\.yaml:5:3 at top\.n: the key "n" is given twice in one mapping \(first at line 4\)/,
    );
    expect(() => SourceDocument.parse('x.yaml', 'a: [1,\n')).toThrow(/x\.yaml:\d+:\d+: is not valid YAML\/JSON/);
  });

  it('keeps a key given twice for the loader when asked, reading the last, located at the last', () => {
    const doc = SourceDocument.parse('x.yaml', 'a: 1\nb: {c: 1}\nb: {c: 2}\n', { problems: 'keep' });
    expect(doc.value).toEqual({ a: 1, b: { c: 2 } });
    expect(doc.keptDuplicateKeys.map((error) => error.message)).toEqual([
      'x.yaml:3:1 at b: the key "b" is given twice in one mapping (first at line 2); remove one',
    ]);
    expect(doc.locate(['b', 'c'])).toEqual({ line: 3, column: 8 });
    const json = SourceDocument.parse('x.json', '{"b": 1, "b": 2}', { problems: 'keep' });
    expect(json.value).toEqual({ b: 2 });
    expect(json.keptDuplicateKeys.map((error) => error.expected)).toEqual([expect.stringContaining('the key "b" appears twice in one object')]);
    expect(json.keptDuplicateKeys.map((error) => `${error.line}:${error.column} ${error.path}`)).toEqual(['1:10 b']);
    // A syntax error elsewhere is said beside them.
    expect(() => SourceDocument.parse('x.yaml', 'a: 1\na: 2\nb: [1,\n', { problems: 'keep' })).toThrow(/given twice[\s\S]*is not valid YAML\/JSON/);
  });

  it('refuses a file of several documents in our own words, at the line the second one starts', () => {
    const error = configErrorOf(() => SourceDocument.parse('x.yaml', '---\nname: a\n---\nname: b\n'));
    expect(error.message).toBe('x.yaml:3:1: holds several YAML documents (a "---" line at line 3); agentcheck reads one document per file');
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(error.message).not.toContain('parseAllDocuments');
    expect(configErrorOf(() => SourceDocument.parse('x.yaml', 'name: a\n...\nname: b\n')).message).toBe(
      'x.yaml:3:1: holds several YAML documents (a second document starts at line 3); agentcheck reads one document per file',
    );
  });

  it('refuses every YAML merge key at its key, in one pass, with or without anchors', () => {
    const message = 'YAML merge keys (<<) are not supported; write the keys out';
    const anchored = configErrorOf(() => SourceDocument.parse('x.yaml', 'base: &b {a: 1}\nlist:\n  - <<: *b\n    c: 2\n  - {<<: {a: 2}}\n'));
    expect(anchored.message.split('\n')).toEqual([`x.yaml:3:5 at list[0].<<: ${message}`, `x.yaml:5:6 at list[1].<<: ${message}`]);
    expect(configErrorOf(() => SourceDocument.parse('x.yaml', 'a:\n  <<: {b: 1}\n')).message).toBe(`x.yaml:2:3 at a.<<: ${message}`);
    // A quoted "<<" is an ordinary key (no merge in YAML 1.1 either); "<<" in text, and JSON keys, are data.
    expect(SourceDocument.parse('x.yaml', '"<<": 1\nb: "cat <<EOF"\n').value).toEqual({ '<<': 1, b: 'cat <<EOF' });
    expect(SourceDocument.parse('x.json', '{"<<": 1}').value).toEqual({ '<<': 1 });
  });

  it("keeps merge keys for the loader, with the reader's advice, and gives it the value with them applied", () => {
    const text = 'base: &b {a: 1, c: 0}\nlist:\n  - <<: *b\n    c: 2\n  - {<<: [{a: 2}, {a: 3, d: 4}], a: 5}\n';
    const doc = SourceDocument.parse('x.yaml', text, { problems: 'keep', mergeKeyAdvice: () => 'or share them' });
    expect(doc.keptProblems().map((problem) => problem.message)).toEqual([
      'x.yaml:3:5 at list[0].<<: YAML merge keys (<<) are not supported; write the keys out, or share them',
      'x.yaml:5:6 at list[1].<<: YAML merge keys (<<) are not supported; write the keys out, or share them',
    ]);
    // Keys written beside `<<` win, then the first mapping merged; the anchored mapping is left as written.
    expect(doc.value).toEqual({
      base: { a: 1, c: 0 },
      list: [
        { a: 1, c: 2 },
        { a: 5, d: 4 },
      ],
    });
    // A problem at a key the merge key brought in is located at the merge key.
    expect(doc.error(['list', 0, 'a'], 'x').message).toBe('x.yaml:3:5 at list[0].a: x');
    expect(doc.error(['list', 1, 'd'], 'x', undefined, true).message).toBe('x.yaml:5:6 at list[1].d: x');
    expect(doc.error(['list', 0, 'c'], 'x').message).toBe('x.yaml:4:8 at list[0].c: x');
  });

  it('refuses a list or a mapping as a mapping key wherever it is, at the key, also through an alias', () => {
    const message = 'a mapping key must be a scalar such as a name, not a list or a mapping';
    expect(configErrorOf(() => SourceDocument.parse('x.yaml', 'inputs:\n  context: {? [a]: 1}\n')).message).toBe(`x.yaml:2:15 at inputs.context: ${message}`);
    const all = configErrorOf(() => SourceDocument.parse('x.yaml', 'args:\n  [b, c]: 2\n  ? {k: 1}\n  : v\nlist:\n  - ? &k [z]\n    : 3\n  - *k : 4\n'));
    expect(all.message.split('\n')).toEqual([
      `x.yaml:2:3 at args: ${message}`,
      `x.yaml:3:5 at args: ${message}`,
      `x.yaml:6:10 at list[0]: ${message}`,
      `x.yaml:8:5 at list[1]: ${message}`,
    ]);
    // Scalar keys (explicit, quoted, numbers) and look-alikes inside values are fine.
    expect(SourceDocument.parse('x.yaml', '? a\n: 1\n"[b]": 2\n3: c\nd: "what ? [x]: y"\ne: &s k\n*s : f\n').value).toEqual({
      a: 1,
      '[b]': 2,
      3: 'c',
      d: 'what ? [x]: y',
      e: 'k',
      k: 'f',
    });
  });

  it('refuses a flow list or mapping used as an implicit key after the first key of an indented mapping, keeping every line:col', () => {
    const message = 'a mapping key must be a scalar such as a name, not a list or a mapping';
    // The located parser cannot read this form; its keys are placed all the same, anchored file or not.
    for (const anchor of ['', 'z: &z 1\n']) {
      const text = `${anchor}ctx:\n  a: 1\n  {x: 1}: 2\n  [a, "b]"]: 3\n  - {y: 1}: 4\n`.replace('  - {y: 1}: 4\n', 'list:\n  - k: 1\n    {y: 1}: 4\n');
      const error = configErrorOf(() => SourceDocument.parse('x.yaml', text));
      const shift = anchor ? 1 : 0;
      expect(error.message.split('\n')).toEqual([
        `x.yaml:${3 + shift}:3 at ctx: ${message}`,
        `x.yaml:${4 + shift}:3 at ctx: ${message}`,
        `x.yaml:${7 + shift}:5 at list[0]: ${message}`,
      ]);
    }
    // Kept for the loader: the made-up keys are known, and other values keep their positions.
    const doc = SourceDocument.parse('x.yaml', 'agent:\n  name: L\n  {x: 1}: 2\n  max_turns: 0\n', { problems: 'keep' });
    expect(doc.keptComplexKeys.map((problem) => problem.message)).toEqual([`x.yaml:3:3 at agent: ${message}`]);
    expect(doc.madeUpKeys).toEqual([['agent', '[object Object]']]);
    expect(doc.error(['agent', 'max_turns'], 'x').message).toBe('x.yaml:4:14 at agent.max_turns: x');
  });

  it('keeps a list or a mapping used as a key for the loader when asked, with the key it was read as', () => {
    const doc = SourceDocument.parse('x.yaml', 'a: 1\nb:\n  ? [c, d]\n  : 2\n  e: 3\n', { problems: 'keep' });
    expect(doc.value).toEqual({ a: 1, b: { 'c,d': 2, e: 3 } });
    expect(doc.keptComplexKeys.map((error) => error.message)).toEqual([
      'x.yaml:3:5 at b: a mapping key must be a scalar such as a name, not a list or a mapping',
    ]);
    expect(doc.madeUpKeys).toEqual([['b', 'c,d']]);
    // Through an alias too (the located parser's string of it), and none for a file without one.
    const anchored = SourceDocument.parse('x.yaml', 'k: &k [z]\nm:\n  *k : 1\n  n: 2\n', { problems: 'keep' });
    expect(anchored.madeUpKeys).toHaveLength(1);
    expect(anchored.madeUpKeys[0].slice(0, 1)).toEqual(['m']);
    expect(SourceDocument.parse('x.yaml', 'a: 1\n', { problems: 'keep' }).keptComplexKeys).toEqual([]);
  });

  it('parses anchors and aliases with the alias limit', () => {
    expect(SourceDocument.parse('x.yaml', 'a: &x {k: 1}\nb: *x\n').value).toEqual({ a: { k: 1 }, b: { k: 1 } });
    expect(() => SourceDocument.parse('x.yaml', 'b: *nowhere\n')).toThrow(
      /^x\.yaml:1:4: is not valid YAML\/JSON: alias \*nowhere has no anchor &nowhere before it$/,
    );
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 6; i++)
      bomb.push(
        `${'bcdefg'[i]}: &${'bcdefg'[i]} [${Array(10)
          .fill('*' + 'abcdef'[i])
          .join(', ')}]`,
      );
    // At the alias whose expansion goes past the limit: the 8th *c (8 uses of c, 11 * 11 values each).
    const error = configErrorOf(() => SourceDocument.parse('x.yaml', bomb.join('\n')));
    expect(error.message).toBe('x.yaml:4:36: is not valid YAML/JSON: YAML aliases are limited to 1000 expansions (alias *c goes past the limit)');
    expect(error.code).toBe('CONFIG_SYNTAX');
  });

  it('reads JSON with JSON.parse and locates into it', () => {
    const doc = SourceDocument.parse('x.json', '{\n  "id": "a",\n  "agent": {"name": 3}\n}');
    expect(doc.value).toEqual({ id: 'a', agent: { name: 3 } });
    expect(doc.locate(['agent', 'name'])).toEqual({ line: 3, column: 21 });
  });
});

describe('keys longer than YAML 1.2 allows implicit keys to be (1,024 characters)', () => {
  it('are located like any key, so an unknown one keeps its line and column', () => {
    const long = 'k'.repeat(1050);
    const doc = SourceDocument.parse('x.yaml', `name: hv\n${long}: 1\n`);
    expect(doc.locateKey([long])).toEqual({ line: 2, column: 1 });
  });
});

describe('SourceDocument limits', () => {
  it('refuses values nested deeper than 100 levels, with a location, instead of exhausting memory later', () => {
    const deep = `${'['.repeat(1000)}1${']'.repeat(1000)}`;
    expect(() => SourceDocument.parse('deep.json', `{"a": ${deep}}`)).toThrow(/deep\.json(:\d+:\d+)? at a(\[0\])+: is nested more than 100 levels deep/);
    // Far past the limit the reader stops (at 300 levels): said as nesting, never as the engine's "Maximum call stack size exceeded".
    expect(configErrorOf(() => SourceDocument.parse('deep.yaml', `a: ${deep}\n`))).toMatchObject({
      code: 'CONFIG_TOO_DEEP',
      message: expect.stringMatching(/^deep\.yaml:\d+:\d+: is nested too deeply to read \(more than 100 levels are refused\)$/),
    });
    expect(SourceDocument.parse('ok.json', `{"a": ${'['.repeat(50)}1${']'.repeat(50)}}`).value).toBeTruthy();
  });

  it('says the same of a text too deep to read whatever V8 has optimized by then: the path when it was read, else where reading stopped', () => {
    const nested = (levels: number) => `a: ${'['.repeat(levels)}1${']'.repeat(levels)}\n`;
    // A little too deep: read, and the nesting check names the path.
    expect(() => SourceDocument.parse('deep.yaml', nested(150))).toThrow(/^deep\.yaml:\d+:\d+ at a(\[0\])+: is nested more than 100 levels deep/);
    // Far too deep: refused where the reader stopped, before any parser's recursion could run out
    // of stack (which it did or not by how much of the parser V8 had optimized).
    for (const levels of [400, 5000]) {
      expect(configErrorOf(() => SourceDocument.parse('deep.yaml', nested(levels)))).toMatchObject({
        code: 'CONFIG_TOO_DEEP',
        message: 'deep.yaml:1:303: is nested too deeply to read (more than 100 levels are refused)',
      });
    }
  });

  it('says the same of a file with anchors (read by the alias-limited parser): its depth is measured before that parser recurses', () => {
    const nested = (levels: number) => `base: &b {x: 1}\nref: *b\na: ${'['.repeat(levels)}1${']'.repeat(levels)}\n`;
    expect(() => SourceDocument.parse('deep.yaml', nested(150))).toThrow(/^deep\.yaml:\d+:\d+ at a(\[0\])+: is nested more than 100 levels deep/);
    for (const levels of [400, 5000, 50_000]) {
      expect(configErrorOf(() => SourceDocument.parse('deep.yaml', nested(levels)))).toMatchObject({
        code: 'CONFIG_TOO_DEEP',
        message: 'deep.yaml:3:303: is nested too deeply to read (more than 100 levels are refused)',
      });
    }
    // The anchors still work, through the located parser.
    expect(SourceDocument.parse('ok.yaml', nested(3)).value).toMatchObject({ base: { x: 1 }, ref: { x: 1 } });
  });

  it('reads a file that states no size (a device, a /proc file) only up to the 5 MB limit', () => {
    expect(configErrorOf(() => SourceDocument.read('/dev/zero'))).toMatchObject({ code: 'CONFIG_TOO_LARGE', file: '/dev/zero' });
    // A /proc file states size 0 and is read whole when small.
    expect(SourceDocument.read('/proc/self/stat').value).toBeTruthy();
  });

  it('lists every number that cannot be read as written, each once, in one pass', () => {
    const text = 'a: .inf\nb: [1, 1e-400, .nan]\nc: 12345678901234567890\n';
    const error = configErrorOf(() => SourceDocument.parse('n.yaml', text));
    expect(error.message.split('\n').map((line) => /^n\.yaml:(\d+):/.exec(line)?.[1])).toEqual(['1', '2', '2', '3']);
  });

  it('refuses unknown YAML tags instead of dropping them', () => {
    expect(() => SourceDocument.parse('x.yaml', 'a: !custom hi\n')).toThrow(/x\.yaml:1:4: is not valid YAML\/JSON: .*custom/);
    // YAML 1.1's tags are not the core schema's either: refused, never turned into {} or a Buffer.
    for (const value of ['!!binary aGVsbG8=', '!!set {a, b}', '!!omap [{x: 1}]', '!!pairs [{x: 1}]', '!!timestamp 2024-01-01']) {
      expect(() => SourceDocument.parse('x.yaml', `a: ${value}\n`), value).toThrow(/x\.yaml:1:4: is not valid YAML\/JSON: Unresolved tag/);
    }
  });
});

describe('a byte order mark', () => {
  it('is read past in a .json file, as in YAML', () => {
    expect(SourceDocument.parse('b.json', '\ufeff{"a": 1}').value).toEqual({ a: 1 });
    expect(SourceDocument.parse('b.yaml', '\ufeffa: 1\n').value).toEqual({ a: 1 });
  });
});

describe('.json files are strict JSON', () => {
  it('YAML in a .json file is a located syntax error, not read as YAML', () => {
    const error = configErrorOf(() => SourceDocument.parse('a.json', '{"id": "a",\n  agent: {name: B}}'));
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(error.line).toBe(2);
    expect(error.expected).toContain('is not valid JSON');
    expect(configErrorOf(() => SourceDocument.parse('a.json', '{"a": 1,}')).code).toBe('CONFIG_SYNTAX');
    expect(configErrorOf(() => SourceDocument.parse('a.json', 'id: a\n')).code).toBe('CONFIG_SYNTAX');
  });

  it('a JSON string holding "&x" is read as JSON (no YAML anchor handling)', () => {
    expect(SourceDocument.parse('a.json', '{"a": "x &y *z"}').value).toEqual({ a: 'x &y *z' });
  });
});

describe('numbers that cannot be read as written are refused, not rounded', () => {
  it('in YAML: an unquoted 1e400 is refused where it is written, a quoted one stays a string', () => {
    const error = configErrorOf(() => SourceDocument.parse('a.yaml', 'a: 1\nargs: {order_id: 1e400}\n'));
    expect(error.line).toBe(2);
    expect(error.expected).toContain('number 1e400 is not finite');
    expect(SourceDocument.parse('a.yaml', 'args: {order_id: "1e400", n: 1e5}\n').value).toEqual({ args: { order_id: '1e400', n: 100000 } });
  });

  it('in JSON: beyond 2^53, overflow and underflow, located at the literal', () => {
    const big = configErrorOf(() => SourceDocument.parse('a.json', '{"id": "a",\n "revision": 9007199254740993}'));
    expect([big.line, big.column]).toEqual([2, 14]);
    expect(big.expected).toContain('beyond 2^53');
    expect(configErrorOf(() => SourceDocument.parse('a.json', '{"revision": 1e-400}')).expected).toContain('too small to be represented');
    expect(configErrorOf(() => SourceDocument.parse('a.json', '{"revision": 1e400}')).expected).toContain('is not finite');
    // Inside strings, and ordinary numbers, are fine.
    expect(SourceDocument.parse('a.json', '{"a": "1e-400 \\" 1e400", "b": [0, -0.5, 1e-5, 9007199254740991]}').value).toEqual({
      a: '1e-400 " 1e400',
      b: [0, -0.5, 1e-5, 9007199254740991],
    });
  });

  it('in JSON: every one in one pass, each with its path and line:col', () => {
    const text = '{"id": "n", "revision": 1,\n "agent": {"tools": [{"returns": {"a": 9007199254740993, "b": 1e-400}},\n {"returns": [1, 1e400]}]}}';
    const error = configErrorOf(() => SourceDocument.parse('n.json', text));
    expect(error.message.split('\n').slice(0, 3)).toEqual([
      'n.json:2:40 at agent.tools[0].returns.a: number 9007199254740993 is beyond 2^53 (9007199254740991) and would be rounded',
      'n.json:2:63 at agent.tools[0].returns.b: number 1e-400 is too small to be represented (it would be read as 0)',
      expect.stringMatching(/^n\.json:3:18 at agent\.tools\[1\]\.returns\[1\]: number 1e400 is not finite/),
    ]);
    // Keys holding quotes, escapes and brackets do not derail the path; a key given twice is said too.
    const tricky = configErrorOf(() => SourceDocument.parse('t.json', '{"a\\"[": {"x": [[], {}, 1e-400]}, "b": 1, "b": 2}'));
    expect(tricky.message).toContain('t.json:1:25 at ["a\\"["].x[2]: number 1e-400 is too small');
    expect(tricky.message).toContain('the key "b" appears twice');
  });

  it('in YAML: beyond 2^53, .inf and underflow, located', () => {
    const big = configErrorOf(() => SourceDocument.parse('a.yaml', 'id: a\nrevision: 12345678901234567890\n'));
    expect(big.path).toBe('revision');
    expect(big.line).toBe(2);
    expect(configErrorOf(() => SourceDocument.parse('a.yaml', 'a: [1, .inf]\n')).path).toBe('a[1]');
    const tiny = configErrorOf(() => SourceDocument.parse('a.yaml', 'id: a\nrevision: 1e-400\n'));
    expect([tiny.line, tiny.column]).toEqual([2, 11]);
    expect(tiny.expected).toContain('1e-400 is too small');
    expect(configErrorOf(() => SourceDocument.parse('a.yaml', 'a: &x 1e-400\nb: *x\n')).expected).toContain('too small');
    // Each with its path, quoting the number as written (not as already rounded).
    const all = configErrorOf(() => SourceDocument.parse('n.yaml', 'id: n\nrevision: 1e-400\nagent:\n  tools: [{returns: {a: 12345678901234567890}}]\n'));
    expect(all.message.split('\n').slice(0, 2)).toEqual([
      'n.yaml:2:11 at revision: number 1e-400 is too small to be represented (it would be read as 0)',
      'n.yaml:4:25 at agent.tools[0].returns.a: number 12345678901234567890 is beyond 2^53 (9007199254740991) and would be rounded',
    ]);
    expect(SourceDocument.parse('a.yaml', 'a: "1e-400"\nb: 0e-400\nc: 0.5\n').value).toEqual({ a: '1e-400', b: 0, c: 0.5 });
  });
});

describe('numbers beyond 2^53 that a double holds exactly are read as written', () => {
  it('in YAML and JSON: 1e16, 1.5e20, 9007199254740992.0 and 2^60 in full are accepted; a rounded integer in any spelling is not', () => {
    const exact = '{"a": 1.5e20, "b": 1e16, "c": 9007199254740992.0, "d": 1152921504606846976, "e": -1E+16, "f": 0.1}';
    const value = { a: 1.5e20, b: 1e16, c: 9007199254740992, d: 2 ** 60, e: -1e16, f: 0.1 };
    expect(SourceDocument.parse('a.json', exact).value).toEqual(value);
    expect(SourceDocument.parse('a.yaml', exact).value).toEqual(value);
    // Read through an alias too: the value alone does not show the literal, the anchor's says it is exact.
    expect(SourceDocument.parse('a.yaml', 'a: &x 1152921504606846976\nb: *x\n').value).toEqual({ a: 2 ** 60, b: 2 ** 60 });
    for (const file of ['n.json', 'n.yaml']) {
      const error = configErrorOf(() => SourceDocument.parse(file, '{"a": 1.0000000000000001e20, "b": 9007199254740993.0, "c": 1e16}'));
      expect(error.message.split('\n')).toEqual([
        `${file}:1:7 at a: number 1.0000000000000001e20 is beyond 2^53 (9007199254740991) and would be rounded`,
        `${file}:1:35 at b: number 9007199254740993.0 is beyond 2^53 (9007199254740991) and would be rounded`,
      ]);
    }
  });
});

describe('format messages', () => {
  it('name a list of types in words', async () => {
    const { revisionFromValue } = await import('../../src/engine/revision/load-build.js');
    const flow = {
      entry_point: 'a',
      components: [{ name: 'a', type: 'deterministic_step', tool_name: 't', inputs: [5] }],
      routers: [{ from: 'a', to: 'end' }],
    };
    const error = configErrorOf(() => revisionFromValue({ id: 'f', agent: { name: 'F', tools: [{ name: 't', returns: 1 }] }, flow }));
    expect(error.expected).toBe('expected string or object, got number 5');
  });
});
