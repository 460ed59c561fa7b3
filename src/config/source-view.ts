import type { ConfigError } from './errors.js';
import type { PathSegments, ShownPath } from './format-path.js';
import type { SourceDocument } from './source.js';

/** Part of a document (an inline delta inside a scenario): paths relative to `base`. */
export class SourceView {
  constructor(
    readonly doc: SourceDocument,
    readonly base: PathSegments,
  ) {}

  get file(): string {
    return this.doc.file;
  }

  get value(): unknown {
    let current = this.doc.value;
    for (const segment of this.base) current = (current as Record<string | number, unknown> | null)?.[segment];
    return current;
  }

  locate(path: ShownPath): { line?: number; column?: number } {
    return this.doc.locate([...this.base, ...path]);
  }

  error(path: ShownPath, expected: string, code?: string, atKey = false): ConfigError {
    return this.doc.error([...this.base, ...path], expected, code, atKey);
  }
}
