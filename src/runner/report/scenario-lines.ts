import { SourceDocument } from '../../config/source.js';

/**
 * Finds the line where each scenario starts in its file, for CI annotations and JUnit. The
 * located YAML tree is only built here, when a reporter asks, so loading a suite stays fast.
 * Returns undefined when the file can no longer be read or the name is not found (for example a
 * scenario expanded from a dataset).
 */
export class ScenarioLines {
  private readonly files = new Map<string, Map<string, number>>();

  /** The 1-based line of scenario `name` in `file` (an absolute path), if known. */
  lineOf(file: string, name: string): number | undefined {
    let lines = this.files.get(file);
    if (!lines) {
      lines = readLines(file);
      this.files.set(file, lines);
    }
    return lines.get(name);
  }
}

function readLines(file: string): Map<string, number> {
  const lines = new Map<string, number>();
  let doc: SourceDocument;
  try {
    doc = SourceDocument.read(file);
  } catch {
    return lines;
  }
  const value = doc.value as { name?: unknown; scenarios?: unknown } | null;
  if (!value || typeof value !== 'object') return lines;
  if (Array.isArray(value.scenarios)) {
    value.scenarios.forEach((scenario: unknown, index) => {
      const name = (scenario as { name?: unknown } | null)?.name;
      const line = doc.locate(['scenarios', index]).line;
      if (typeof name === 'string' && line !== undefined) lines.set(name, line);
    });
  } else if (typeof value.name === 'string') {
    const line = doc.locateKey(['name']).line;
    if (line !== undefined) lines.set(value.name, line);
  }
  return lines;
}
