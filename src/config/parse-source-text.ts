import { CORE_SCHEMA, load as loadYaml, YAMLException, type LoadOptions } from 'js-yaml';
import type { LineCounter, Node } from 'yaml';
import { ConfigError, throwConfigErrors } from './errors.js';
import { formatPath } from './format-path.js';
import { aliasError, DUPLICATE_KEY_CODE, MAX_ALIASES, parseLocated } from './located-yaml.js';
import { MAX_DEPTH, TOO_DEEP_TO_READ } from './nesting-limit.js';
import { numberMessageAt } from './number-checks.js';
import { readYamlEntry, writeYamlEntry, yamlCacheEntry } from './parsed-yaml-cache.js';
import { readStrictJson } from './strict-json.js';
import { mayHaveComplexKey } from './yaml-complex-keys.js';
import { duplicateKeyErrors } from './yaml-duplicate-keys.js';
import { maskFlowKeys } from './yaml-flow-keys.js';

/*
 * How a config file's text becomes a value, for SourceDocument. Two parsers, one behaviour:
 * js-yaml (core schema) reads valid files about ten times faster than `yaml`'s Document API,
 * which a suite of thousands of scenarios needs; `yaml` builds the node tree with positions, and
 * reads the text when js-yaml rejects it (so syntax errors keep `yaml`'s messages) and files with
 * anchors or aliases (so the alias-expansion limit always applies). `.json` files are strict JSON.
 */

/**
 * An anchor anywhere in the text: such files take the alias-limited parser. Aliases need an
 * anchor to expand, so a file without one cannot be an alias bomb (an alias to nothing is a
 * syntax error, reported by the located parser).
 */
const ANCHOR = /(?:^|[\s[{,:-])&[^\s,[\]{}]/m;

/**
 * How deep js-yaml reads (its maxDepth; it counts the scalars too): past MAX_DEPTH, so a file
 * nested a little too deep is read and the nesting check names the path, yet far from the end of
 * any stack. Deeper is refused here, always with the same words: left to the located parser, the
 * outcome hung on whether its recursion ran out of stack, which depends on how much of it V8 had
 * optimized by then.
 */
const READ_DEPTH = MAX_DEPTH * 3;

// maxDepth is js-yaml 4.3's option (its type definitions predate it).
const JS_YAML_OPTIONS: LoadOptions & { maxDepth: number } = { schema: CORE_SCHEMA, json: false, maxDepth: READ_DEPTH };
/** What a parsed-YAML cache entry was read with (parsed-yaml-cache.ts): the options above. */
const CACHED_WITH = `core schema, json: false, maxDepth: ${READ_DEPTH}`;

/** The positions of a document: its node tree and line table, built only when needed. */
export interface Located {
  root: Node | null;
  lines: LineCounter;
  /** The keys the located parser was given in place of flow collections it cannot read as keys (yaml-flow-keys.ts). */
  placeholders?: ReadonlySet<string>;
}

/** A text read: its value, its positions when the located parser built them, and the problems kept. */
export interface ParsedText {
  value: unknown;
  /** The text the value was read from (a `.json` file's without its byte order mark). */
  text: string;
  located: Located | null;
  /** A `.json` file's numbers that cannot be read as written (YAML's are found on the document). */
  numberProblems: ConfigError[];
  duplicateKeys: ConfigError[];
}

/**
 * Parses text (YAML 1.2, so JSON too; strict JSON for `.json` files). Syntax errors become located
 * ConfigErrors; so do keys given twice and a `.json` file's numbers that cannot be read as
 * written, unless `keep` (they are then returned, for the loader to report with its own).
 */
export function parseSourceText(file: string, text: string, keep: boolean): ParsedText {
  if (/\.json$/i.test(file)) return parseJsonText(file, text, keep);
  const anchored = ANCHOR.test(text);
  // A large file read before, without anchors, is its kept value (what js-yaml read then).
  const entry = anchored ? undefined : yamlCacheEntry(text, CACHED_WITH);
  const kept = entry === undefined ? undefined : readYamlEntry(entry);
  if (kept) return { value: kept.value, text, located: null, numberProblems: [], duplicateKeys: [] };
  let value: unknown;
  let parsed = false;
  try {
    value = loadYaml(text, JS_YAML_OPTIONS);
    parsed = true;
  } catch (error) {
    if (error instanceof YAMLException && error.reason.startsWith('nesting exceeded maxDepth')) {
      throw new ConfigError({ file, line: error.mark.line + 1, column: error.mark.column + 1 }, TOO_DEEP_TO_READ, 'CONFIG_TOO_DEEP');
    }
    // Fall through: the located parser reports the problem with its position.
  }
  // A file with anchors is read by js-yaml too, for its depth only: the value comes from the
  // alias-limited parser, whose recursion must never meet a text deeper than READ_DEPTH.
  if (parsed && !anchored) {
    if (entry !== undefined) writeYamlEntry(entry, value ?? null);
    return { value: value ?? null, text, located: null, numberProblems: [], duplicateKeys: [] };
  }
  let located: ReturnType<typeof parseLocatedChecked>;
  let duplicateKeys: ConfigError[] = [];
  try {
    located = parseLocatedChecked(file, text, true);
  } catch (error) {
    if (!(error instanceof ConfigError && error.code === DUPLICATE_KEY_CODE)) throw error;
    duplicateKeys = duplicateKeyErrors(file, text, error);
    if (!keep) throwConfigErrors(duplicateKeys);
    // Kept: the rest of the file is still read and checked, with the last of each key.
    try {
      located = parseLocatedChecked(file, text, false);
    } catch (other) {
      if (other instanceof ConfigError) throwConfigErrors([...duplicateKeys, other]);
      throw other;
    }
  }
  try {
    value = located.doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw aliasError(file, located, (error as Error).message);
  }
  const positions = { root: located.doc.contents as Node | null, lines: located.lines, placeholders: located.placeholders };
  return { value: value ?? null, text, located: positions, numberProblems: [], duplicateKeys };
}

/** A `.json` file is strict JSON (no YAML); a syntax error is located at its line and column. */
function parseJsonText(file: string, given: string, keep: boolean): ParsedText {
  // A byte order mark (some Windows editors write one) is not JSON, but says nothing either.
  const text = given.charCodeAt(0) === 0xfeff ? given.slice(1) : given;
  const read = readStrictJson(text);
  const numbers: ConfigError[] = [];
  const duplicates: ConfigError[] = [];
  if ('problems' in read) {
    for (const { message, code, path, ...at } of read.problems) {
      // A number is CONFIG_INVALID; a key given twice (and a syntax error) CONFIG_SYNTAX.
      const number = code === 'CONFIG_INVALID';
      const error = new ConfigError(
        { file, ...at, path: path ? formatPath(path) || undefined : undefined },
        number ? numberMessageAt(message, path) : message,
        code,
      );
      (number ? numbers : duplicates).push(error);
    }
    // A syntax error, or every number that cannot be read as written and key given twice, in one pass.
    if (!('value' in read) || !keep) throwConfigErrors([...numbers, ...duplicates]);
  }
  return { value: read.value ?? null, text, located: null, numberProblems: numbers, duplicateKeys: duplicates };
}

/**
 * parseLocated, with the parser's own overflow on a deeply nested text said as a nesting problem,
 * and a flow list or mapping used as a key that the parser cannot read given to it as a
 * placeholder (yaml-flow-keys.ts), so the file keeps its positions.
 */
export function parseLocatedChecked(file: string, text: string, uniqueKeys: boolean): ReturnType<typeof parseLocated> & { placeholders?: ReadonlySet<string> } {
  try {
    return parseLocated(file, text, uniqueKeys);
  } catch (error) {
    if (error instanceof RangeError) throw new ConfigError({ file }, TOO_DEEP_TO_READ, 'CONFIG_TOO_DEEP');
    if (!(error instanceof ConfigError && error.code === 'CONFIG_SYNTAX') || !mayHaveComplexKey(text)) throw error;
    const masked = maskFlowKeys(text);
    if (!masked.placeholders.size) throw error;
    try {
      return { ...parseLocated(file, masked.text, uniqueKeys), placeholders: masked.placeholders };
    } catch {
      // Another problem than the keys: the text's own error says it.
      throw error;
    }
  }
}
