import type { Report } from './report.js';

/**
 * report.json as a sequence of text chunks, one per top-level field and one per row: the same
 * bytes as `JSON.stringify(report, null, 2) + '\n'`, without ever holding the whole text (at
 * 50,000 rows that string alone is hundreds of MB). docs/report-format.md.
 */
export function* reportJsonChunks(report: Readonly<Report>): Generator<string> {
  let first = true;
  for (const [key, value] of Object.entries(report)) {
    const streamed = key === 'scenarios' && Array.isArray(value) && value.length > 0;
    // JSON.stringify leaves out fields without a JSON form (undefined, functions); so does this.
    const json = streamed ? '' : (JSON.stringify(value, null, 2) as string | undefined);
    if (json === undefined) continue;
    const head = `${first ? '{\n' : ',\n'}  ${JSON.stringify(key)}: `;
    first = false;
    if (!streamed) {
      yield `${head}${indent(json, '  ')}`;
      continue;
    }
    const rows = value as readonly unknown[];
    yield `${head}[\n`;
    for (let i = 0; i < rows.length; i++) {
      // Items without a JSON form become null, as JSON.stringify makes them.
      yield `${i ? ',\n' : ''}    ${indent((JSON.stringify(rows[i], null, 2) as string | undefined) ?? 'null', '    ')}`;
    }
    yield '\n  ]';
  }
  yield first ? '{}\n' : '\n}\n';
}

/** Nests pretty-printed JSON one level deeper: JSON strings never hold a raw newline, so every newline is layout. */
function indent(json: string, by: string): string {
  return json.includes('\n') ? json.replaceAll('\n', `\n${by}`) : json;
}
