import type { Node } from 'yaml';
import { ConfigError, throwConfigErrors } from './errors.js';
import { readConfigText } from './read-config-file.js';
import { deepestPath } from './deepest-path.js';
import { MAX_DEPTH } from './nesting-limit.js';
import { mayHoldInexactNumber, mayUnderflow, numberMessageAt, valueNumberProblems } from './number-checks.js';
import { parseLocatedChecked, parseSourceText, type Located } from './parse-source-text.js';
import { MERGE_KEY_MESSAGE, mergeKeyPaths, withMergeKeysApplied, type MergedKey } from './yaml-merge-keys.js';
import { keyNode, mappingKeys, nearestNode, positionOf } from './yaml-locate.js';
import { SourceView } from './source-view.js';
import { COMPLEX_KEY_MESSAGE, complexKeys, madeUpKeyPaths, mayHaveComplexKey } from './yaml-complex-keys.js';
import { yaml } from './located-yaml.js';
import { yamlNumberProblems } from './yaml-numbers.js';
import { formatPath, PathKey, type PathSegments, type ShownPath } from './format-path.js';

export { formatPath, PathKey, type PathSegments, type ShownPath } from './format-path.js';
export { MAX_CONFIG_BYTES } from './read-config-file.js';
export { SourceView } from './source-view.js';
export { MAX_DEPTH } from './nesting-limit.js';

/** The problems SourceDocument.error located at a key (an unknown key), not at the value under it. */
const KEY_PROBLEMS = new WeakSet<ConfigError>();

/** Whether `problem` is about a key itself (made with `atKey`): a dataset row's value cannot have caused it. */
export function isKeyProblem(problem: ConfigError): boolean {
  return KEY_PROBLEMS.has(problem);
}

/**
 * How a document is read. `problems: 'keep'`: numbers that cannot be read as written, keys
 * given twice (the last one kept, as JSON.parse does), lists or mappings used as keys and YAML
 * merge keys are kept in `keptNumberProblems`, `keptDuplicateKeys`, `keptComplexKeys` and
 * `keptMergeKeys` for the loader to report with its own, instead of thrown alone (a loader that
 * asks for this must report them: withKeptProblems).
 */
export interface ReadOptions {
  problems?: 'throw' | 'keep';
  /**
   * Advice added to the problem of the merge key at `path` where the file's format offers one more
   * way to share its keys there (a scenario's, through a scenarios file's defaults); without it
   * (or where it gives none) the message says to write the keys out. `value` is the file's value
   * with its merge keys applied, as its loader reads it: a file's kind is what its keys say,
   * written out or brought in by a `<<` (`<<: {scenarios: [...]}` is a scenarios file).
   */
  mergeKeyAdvice?: (path: PathSegments, value: unknown) => string | undefined;
}

/**
 * A parsed YAML or JSON document that can say where each value came from, so that
 * validation errors point at `file:line:col`. The text is read by parse-source-text.ts; the node
 * tree with positions is built only when an error has to be located, or when the text needed the
 * located parser anyway.
 */
export class SourceDocument {
  readonly file: string;
  readonly value: unknown;
  /**
   * Numbers that cannot be read as written, when the document was read with `{problems: 'keep'}`:
   * its loader reports them beside the format's problems, in one pass (docs/cli.md, validate).
   */
  keptNumberProblems: readonly ConfigError[] = [];
  /** Keys given twice, when the document was read with `{problems: 'keep'}`: reported the same way. */
  keptDuplicateKeys: readonly ConfigError[] = [];
  /** Lists or mappings used as keys, when the document was read with `{problems: 'keep'}`: reported the same way. */
  keptComplexKeys: readonly ConfigError[] = [];
  /**
   * YAML merge keys (`<<`), when the document was read with `{problems: 'keep'}`: reported the
   * same way, the value then holding them applied (withMergeKeysApplied) for the loader's pass.
   */
  keptMergeKeys: readonly ConfigError[] = [];
  /** Where the value holds the string a parser made of a kept complex key: the loader's problems there are the key's. */
  madeUpKeys: readonly PathSegments[] = [];
  private located: Located | null;
  private readonly text: string | null;
  /** Keys a kept merge key brought into the value: located at that merge key. */
  private mergedKeys: readonly MergedKey[] = [];

  private constructor(file: string, value: unknown, located: Located | null, text: string | null) {
    this.file = file;
    this.value = value;
    this.located = located;
    this.text = text;
  }

  /** Parses text (YAML 1.2, so JSON too). Syntax errors become located ConfigErrors. */
  static parse(file: string, text: string, options: ReadOptions = {}): SourceDocument {
    const parsed = parseSourceText(file, text, options.problems === 'keep');
    const doc = new SourceDocument(file, parsed.value, parsed.located, parsed.text);
    doc.keptNumberProblems = parsed.numberProblems;
    doc.keptDuplicateKeys = parsed.duplicateKeys;
    return SourceDocument.checked(doc, options);
  }

  /**
   * Refuses values nested deeper than MAX_DEPTH before anything walks them recursively, and
   * numbers that cannot be read as written (docs/formats.md).
   */
  private static checked(doc: SourceDocument, options: ReadOptions = {}): SourceDocument {
    const deep = deepestPath(doc.value, MAX_DEPTH);
    if (deep) throw doc.error(deep, `is nested more than ${MAX_DEPTH} levels deep; agentcheck files are refused beyond that`, 'CONFIG_TOO_DEEP');
    const problems: ConfigError[] = [];
    if (options.problems === 'keep') doc.keptNumberProblems = [...doc.keptNumberProblems, ...doc.numberProblems()];
    else problems.push(...doc.numberProblems());
    // `<<` read as an ordinary key would show up as an unknown key beside missing ones: said once,
    // at the key; a loader that keeps it checks the rest as if the keys were written out.
    let mergeKeys: PathSegments[] = [];
    let applied: ReturnType<typeof withMergeKeysApplied> = { value: doc.value, merged: [] };
    if (doc.text !== null && !/\.json$/i.test(doc.file) && doc.text.includes('<<')) {
      mergeKeys = mergeKeyPaths(doc.positions().root, yaml());
      if (mergeKeys.length) applied = withMergeKeysApplied(doc.value, mergeKeys);
      const message = (path: PathSegments) => {
        const advice = options.mergeKeyAdvice?.(path, applied.value);
        return advice ? `${MERGE_KEY_MESSAGE}, ${advice}` : MERGE_KEY_MESSAGE;
      };
      const merges = mergeKeys.map((path) => doc.error(path, message(path), 'CONFIG_INVALID', true));
      if (options.problems === 'keep') doc.keptMergeKeys = merges;
      else problems.push(...merges);
    }
    // A list or mapping as a key would be read as a made-up string key; a tree already built (anchors) is walked anyway.
    if (doc.text !== null && !/\.json$/i.test(doc.file) && (doc.located !== null || mayHaveComplexKey(doc.text))) {
      const { root, lines } = doc.positions();
      const found = complexKeys(root, lines, yaml(), doc.positions().placeholders);
      const complex = found.map(
        (key) => new ConfigError({ file: doc.file, line: key.line, column: key.column, path: formatPath(key.path) || undefined }, COMPLEX_KEY_MESSAGE),
      );
      if (options.problems !== 'keep') problems.push(...complex);
      else if (complex.length) {
        doc.keptComplexKeys = complex;
        doc.madeUpKeys = madeUpKeyPaths(doc.value, found);
      }
    }
    // Kept problems are said too when the document is refused here, before its loader sees it.
    if (problems.length) throwConfigErrors([...problems, ...doc.keptProblems()]);
    if (!doc.keptMergeKeys.length) return doc;
    const merged = doc.withValueKeepingProblems(applied.value);
    merged.mergedKeys = applied.merged;
    return merged;
  }

  /** The problems kept for the loader to report (ReadOptions), in the order they are said. */
  keptProblems(): ConfigError[] {
    return [...this.keptNumberProblems, ...this.keptDuplicateKeys, ...this.keptComplexKeys, ...this.keptMergeKeys];
  }

  /** withValue, keeping the problems kept for the loader. */
  private withValueKeepingProblems(value: unknown): SourceDocument {
    const doc = this.withValue(value);
    doc.keptNumberProblems = this.keptNumberProblems;
    doc.keptDuplicateKeys = this.keptDuplicateKeys;
    doc.keptComplexKeys = this.keptComplexKeys;
    doc.keptMergeKeys = this.keptMergeKeys;
    doc.madeUpKeys = this.madeUpKeys;
    return doc;
  }

  /**
   * Every number of a YAML document that cannot be read as written, in one pass, each with its
   * path; the slow walks run only once the value or the text shows one may be there. `.json`
   * files were checked on their text (parse-source-text.ts).
   */
  private numberProblems(): ConfigError[] {
    if (this.text === null || /\.json$/i.test(this.file)) return [];
    const suspect = mayHoldInexactNumber(this.value) || mayUnderflow(this.text);
    if (!suspect) return [];
    // The node tree quotes each number as written and sees `1e-400` (read as 0) and `1e400`.
    const { root, lines } = this.positions();
    const numbers = yamlNumberProblems(root, lines, yaml());
    const problems = numbers.map(
      (number) =>
        new ConfigError(
          { file: this.file, line: number.line, column: number.column, path: formatPath(number.path) || undefined },
          numberMessageAt(number.message, number.path),
          'CONFIG_INVALID',
        ),
    );
    // The value adds what only it holds (a number reached through an alias): each place is said once.
    const at = new Set(problems.map((problem) => `${problem.line}:${problem.column}`));
    for (const number of valueNumberProblems(this.value, new Set(numbers.map((found) => found.value)))) {
      const problem = this.error(number.path, numberMessageAt(number.message, number.path));
      if (!at.has(`${problem.line}:${problem.column}`)) problems.push(problem);
    }
    return problems;
  }

  /** Reads and parses a file, refusing oversized ones; a folder or an unreadable file is a ConfigError too. */
  static read(file: string, options: ReadOptions = {}): SourceDocument {
    return SourceDocument.parse(file, readConfigText(file), options);
  }

  /** Wraps an in-memory value (a delta passed as an object); locations then have no line. */
  static fromValue(file: string, value: unknown): SourceDocument {
    return new SourceDocument(file, value, null, null);
  }

  /** The node tree with positions, parsed on first use. */
  private positions(): Located {
    if (!this.located) {
      if (this.text === null) this.located = { root: null, lines: new (yaml().LineCounter)() };
      else {
        try {
          // The text was read already: a key given twice is a kept problem here, not a syntax error.
          const { doc, lines, placeholders } = parseLocatedChecked(this.file, this.text, false);
          this.located = { root: doc.contents as Node | null, lines, placeholders };
        } catch {
          // A file the located parser cannot read (too deep) still gets its error, without a line.
          this.located = { root: null, lines: new (yaml().LineCounter)() };
        }
      }
    }
    return this.located;
  }

  /**
   * The file holds no value: nothing but whitespace, comments or document markers. A file that
   * writes `null` (or YAML's `~`, `!!null`) holds null, which is a value of its own.
   */
  holdsNothing(): boolean {
    if (this.value !== null || this.text === null) return false;
    if (/\.json$/i.test(this.file)) return this.text.trim() === '';
    const { root } = this.positions();
    // An empty document (`---` alone) is an untagged plain scalar written with no text.
    return root === null || (yaml().isScalar(root) && !root.tag && root.range?.[0] === root.range?.[1]);
  }

  /** The closest known line/column for a path: the node itself, else its nearest ancestor. */
  locate(path: ShownPath): { line?: number; column?: number } {
    const keys = path.map((segment) => (segment instanceof PathKey ? segment.key : segment));
    const from = this.mergedKeys.find((merged) => merged.path.every((segment, index) => keys[index] === segment));
    if (from) return this.locateKey(from.mergeKey);
    const { root, lines } = this.positions();
    return positionOf(nearestNode(root, path, yaml()), lines);
  }

  /** The location of the key itself for `path` (useful for "unknown key" errors). */
  locateKey(path: ShownPath): { line?: number; column?: number } {
    const { root, lines } = this.positions();
    const key = keyNode(root, path, yaml());
    return key ? positionOf(key, lines) : this.locate(path);
  }

  /**
   * The keys of the mapping at `path` in the order written, then any the value holds besides
   * (merged in): the parsed object puts integer-like keys (`2`, `10`) first, the text does not.
   */
  keysInOrder(path: PathSegments, keys: readonly string[]): string[] {
    const { root } = this.positions();
    const given = new Set(keys);
    const written = (mappingKeys(root, path, yaml()) ?? []).filter((key) => given.has(key));
    return [...new Set([...written, ...keys])];
  }

  /** A ConfigError located at `path` in this document; `atKey`: about the key there, not its value. */
  error(path: ShownPath, expected: string, code?: string, atKey = false): ConfigError {
    const pos = atKey ? this.locateKey(path) : this.locate(path);
    const error = new ConfigError({ file: this.file, ...pos, path: formatPath(path) || undefined }, expected, code);
    if (atKey) KEY_PROBLEMS.add(error);
    return error;
  }

  /** The same document holding another value, its positions kept: to try a loader on a variant of it. */
  withValue(value: unknown): SourceDocument {
    const doc = new SourceDocument(this.file, value, this.located, this.text);
    doc.mergedKeys = this.mergedKeys;
    return doc;
  }

  /** A view of the value at `base`, whose paths are relative to it. */
  view(base: PathSegments): SourceView {
    return new SourceView(this, base);
  }
}
