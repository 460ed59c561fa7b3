import { createRequire } from 'node:module';
import type { Alias, LineCounter } from 'yaml';
import { capEchoed } from './cap-text.js';
import { ConfigError } from './errors.js';
import { TOO_DEEP_TO_READ } from './nesting-limit.js';
import { lineColumnAt } from './number-checks.js';

/*
 * The `yaml` package's side of a SourceDocument: parsing with positions, and the located
 * syntax and alias errors. Valid files are read by js-yaml and never need it.
 */

/** The code parseLocated gives a duplicate key, for SourceDocument to list every one with its path. */
export const DUPLICATE_KEY_CODE = 'CONFIG_DUPLICATE_KEY';

/** YAML aliases allowed per document: a "billion laughs" bomb needs far more. */
export const MAX_ALIASES = 1000;

type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;

/** The `yaml` package, loaded on first need (errors, anchored files): valid files never need it. */
export function yaml(): YamlModule {
  yamlModule ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yamlModule;
}

/**
 * Parses with positions; a syntax error is a located ConfigError. With `uniqueKeys: false` a key
 * given twice is let through (the last one kept), for a reader that reports it beside the rest.
 */
export function parseLocated(file: string, text: string, uniqueKeys = true): { doc: ReturnType<YamlModule['parseDocument']>; lines: LineCounter } {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  // resolveKnownTags: false keeps YAML 1.1's !!binary, !!set, !!omap, !!pairs and !!timestamp out
  // of the core schema: they are refused as unknown tags, never turned into {} or a Buffer.
  // logLevel 'error': yaml would print a process warning for a list or mapping used as a key,
  // which SourceDocument reports itself, located (yaml-complex-keys.ts).
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys, resolveKnownTags: false, logLevel: 'error' });
  // Warnings count: an unknown tag such as `!custom` would otherwise be dropped silently. A key over
  // 1,024 characters is YAML 1.2's limit for implicit keys, not ours: js-yaml read the file, and the
  // node tree still places every key (an unknown-key error keeps its line), so it is let through.
  const problem = [...doc.errors, ...doc.warnings].find((found) => found.code !== 'KEY_OVER_1024_CHARS');
  if (problem) {
    const pos = problem.linePos?.[0];
    // yaml's own advice (use parseAllDocuments) is for its API, not for the file's author.
    // The parser's own stack overflow on thousands of nested [ or { says the engine's words, not the file's problem.
    if (/Maximum call stack size exceeded/.test(problem.message)) {
      throw new ConfigError({ file, line: pos?.line, column: pos?.col }, TOO_DEEP_TO_READ, 'CONFIG_TOO_DEEP');
    }
    const message = problem.code === 'MULTIPLE_DOCS' ? severalDocuments(text, problem.pos[0]) : `is not valid YAML/JSON: ${firstLine(problem.message)}`;
    // A duplicate key is said again, each with its key and path, by the document's reader.
    throw new ConfigError({ file, line: pos?.line, column: pos?.col }, message, problem.code === 'DUPLICATE_KEY' ? DUPLICATE_KEY_CODE : 'CONFIG_SYNTAX');
  }
  return { doc, lines };
}

/** Why a file with a second document (starting at `offset`) is refused, naming the line it starts at. */
function severalDocuments(text: string, offset: number): string {
  const { line } = lineColumnAt(text, offset);
  const where = text.startsWith('---', offset) ? `a "---" line at line ${line}` : `a second document starts at line ${line}`;
  return `holds several YAML documents (${where}); agentcheck reads one document per file`;
}

/** yaml's first message line, without the position it repeats (we print file:line:col ourselves). */
function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).replace(/ at line \d+, column \d+:?$/, '');
}

/**
 * The error of a document whose aliases cannot be expanded: too many expansions (a "billion
 * laughs" bomb) or an alias without its anchor, located at the alias.
 */
export function aliasError(file: string, located: ReturnType<typeof parseLocated>, message: string): ConfigError {
  const unresolved = /^Unresolved alias[^:]*: (.+)$/.exec(message);
  if (!unresolved) {
    const alias = aliasOverLimit(located);
    const pos = alias?.range ? located.lines.linePos(alias.range[0]) : undefined;
    const which = alias ? ` (alias *${capEchoed(alias.source, 100)} goes past the limit)` : '';
    return new ConfigError(
      { file, line: pos?.line, column: pos?.col },
      `is not valid YAML/JSON: YAML aliases are limited to ${MAX_ALIASES} expansions${which}`,
      'CONFIG_SYNTAX',
    );
  }
  const name = unresolved[1];
  let offset: number | undefined;
  yaml().visit(located.doc, {
    Alias(_key, node) {
      if (node.source !== name || !node.range) return undefined;
      offset = node.range[0];
      return yaml().visit.BREAK;
    },
  });
  const pos = offset === undefined ? undefined : located.lines.linePos(offset);
  return new ConfigError(
    { file, line: pos?.line, column: pos?.col },
    `is not valid YAML/JSON: alias *${capEchoed(name, 100)} has no anchor &${capEchoed(name, 100)} before it`,
    'CONFIG_SYNTAX',
  );
}

/**
 * The alias whose expansion goes past MAX_ALIASES: yaml's error does not name it, so the
 * document (discarded after the error) is converted again with each alias noting itself when
 * its own expansion throws; the innermost one throws first.
 */
function aliasOverLimit(located: ReturnType<typeof parseLocated>): Alias | undefined {
  let culprit: Alias | undefined;
  yaml().visit(located.doc, {
    Alias(_key, node) {
      const toJSON = node.toJSON.bind(node);
      node.toJSON = (...args: Parameters<Alias['toJSON']>) => {
        try {
          return toJSON(...args);
        } catch (error) {
          culprit ??= node;
          throw error;
        }
      };
    },
  });
  try {
    located.doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch {
    // Expected: the same limit is crossed again, at the same alias.
  }
  return culprit;
}
