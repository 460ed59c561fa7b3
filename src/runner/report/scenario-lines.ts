import { SourceDocument } from '../../config/source.js';

/**
 * Finds the line where each scenario starts in its file, for CI annotations and JUnit. The
 * located YAML tree is only built here, when a reporter asks, so loading a suite stays fast.
 * A scenario expanded from a dataset is found by its name template (`refund {{ vars.order }}`
 * matches `refund A-1`). Returns undefined when the file can no longer be read or the name is not found.
 */
export class ScenarioLines {
  private readonly files = new Map<string, FileLines>();

  /** The 1-based line of scenario `name` in `file` (an absolute path), if known. */
  lineOf(file: string, name: string): number | undefined {
    let lines = this.files.get(file);
    if (!lines) {
      lines = readLines(file);
      this.files.set(file, lines);
    }
    return lines.exact.get(name) ?? lines.templates.find((template) => template.pattern.test(name))?.line;
  }
}

interface FileLines {
  exact: Map<string, number>;
  /** Names with `{{ vars.* }}`, as patterns of the names their rows render, in file order. */
  templates: Array<{ pattern: RegExp; line: number }>;
}

const VARS_TEMPLATE = /\{\{\s*vars\.[A-Za-z0-9_.]+\s*\}\}/g;

function readLines(file: string): FileLines {
  const lines: FileLines = { exact: new Map(), templates: [] };
  let doc: SourceDocument;
  try {
    doc = SourceDocument.read(file);
  } catch {
    return lines;
  }
  const add = (name: unknown, line: number | undefined) => {
    if (typeof name !== 'string' || line === undefined) return;
    if (!VARS_TEMPLATE.test(name)) lines.exact.set(name, line);
    else lines.templates.push({ pattern: namePattern(name), line });
    VARS_TEMPLATE.lastIndex = 0;
  };
  const value = doc.value as { name?: unknown; scenarios?: unknown } | null;
  if (!value || typeof value !== 'object') return lines;
  if (Array.isArray(value.scenarios)) {
    value.scenarios.forEach((scenario: unknown, index) => add((scenario as { name?: unknown } | null)?.name, doc.locate(['scenarios', index]).line));
  } else add(value.name, doc.locateKey(['name']).line);
  return lines;
}

/** `refund {{ vars.order }} ({{ vars.reason }})` -> /^refund [\s\S]*? \([\s\S]*?\)$/. */
function namePattern(template: string): RegExp {
  const parts = template.split(VARS_TEMPLATE).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*?')}$`);
}
