import { reportFieldJson } from './variant-key-order.js';
import type { Report } from './report.js';

/**
 * report.json as a sequence of text chunks, one per top-level field and one per row: the same
 * bytes as `JSON.stringify(report, null, 2) + '\n'` (but for the variant order of variant-key-order.ts), without ever holding the whole text (at
 * 50,000 rows that string alone is hundreds of MB). `rowTexts`, when given, stands for
 * `report.scenarios`: each row already as reportRowText made it, read one at a time (agentcheck
 * run's temporary rows file, row-spill.ts). docs/report-format.md.
 */
export function* reportJsonChunks(report: Readonly<Report>, rowTexts?: Iterable<string>): Generator<string> {
  let first = true;
  for (const [key, value] of Object.entries(report)) {
    const streamed = key === 'scenarios' && (rowTexts !== undefined || Array.isArray(value));
    // JSON.stringify leaves out fields without a JSON form (undefined, functions); so does this.
    // Variant-keyed objects in the suite's variant order, also for names like `2` (variant-key-order.ts).
    const json = streamed ? '' : reportFieldJson(report, key, value);
    if (json === undefined) continue;
    const head = `${first ? '{\n' : ',\n'}  ${JSON.stringify(key)}: `;
    first = false;
    if (!streamed) {
      yield `${head}${indent(json, '  ')}`;
      continue;
    }
    let count = 0;
    for (const text of rowTexts ?? textsOf(value as readonly unknown[])) {
      yield `${count++ ? ',\n' : `${head}[\n`}    ${text}`;
    }
    yield count ? '\n  ]' : `${head}[]`;
  }
  yield first ? '{}\n' : '\n}\n';
}

/** One row as report.json holds it inside `scenarios` (without the leading indent): pretty-printed and nested. */
export function reportRowText(row: unknown): string {
  // Printed two levels down, `[[row]]`, JSON.stringify indents the row's lines as report.json
  // nests them; cutting off the two brackets around it costs one copy, where indenting the
  // row's own text afterwards cost two. Items without a JSON form become null, as there.
  const nested = JSON.stringify([[row]], null, 2);
  return nested.slice(NESTED_HEAD.length, nested.length - NESTED_TAIL.length);
}

/** What JSON.stringify(x, null, 2) puts before and after an item two arrays deep. */
const NESTED_HEAD = '[\n  [\n    ';
const NESTED_TAIL = '\n  ]\n]';

/** Each row's text as it is needed, never all of them at once. */
function* textsOf(rows: readonly unknown[]): Generator<string> {
  for (const row of rows) yield reportRowText(row);
}

/** Nests pretty-printed JSON one level deeper: JSON strings never hold a raw newline, so every newline is layout. */
function indent(json: string, by: string): string {
  return json.includes('\n') ? json.replaceAll('\n', `\n${by}`) : json;
}
