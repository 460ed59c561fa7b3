import { collectConfigErrors, throwConfigErrors, type ConfigError } from './errors.js';
import type { SourceDocument } from './source.js';

/**
 * Loads a document read with `{numbers: 'keep'}`, reporting its numbers that cannot be read as
 * written beside what loading it finds (docs/cli.md, validate: every problem of a file in one
 * pass). A problem loading finds at the place of such a number (the rounded value's type) is
 * left out: the number's own problem says it.
 */
export function withKeptNumberProblems<T>(doc: SourceDocument, load: () => T): T {
  const kept = doc.keptNumberProblems;
  if (!kept.length) return load();
  const problems: ConfigError[] = [...kept];
  collectConfigErrors(problems, () => {
    load();
  });
  const places = new Set(kept.map((problem) => `${problem.file}\0${problem.path}`));
  throwConfigErrors(problems.filter((problem, index) => index < kept.length || !places.has(`${problem.file}\0${problem.path}`)));
  throw new Error('unreachable: kept number problems are thrown');
}
