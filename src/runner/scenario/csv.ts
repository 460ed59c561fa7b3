/** One data record of a CSV file: its fields by header name, and the line it starts on (1-based). */
export interface CsvRecord {
  line: number;
  values: Record<string, string>;
}

/** A CSV syntax problem at a 1-based line; `others`: further records with a problem of their own. */
export class CsvSyntaxError extends Error {
  readonly line: number;
  readonly others: readonly CsvSyntaxError[];
  constructor(line: number, message: string, others: readonly CsvSyntaxError[] = []) {
    super(message);
    this.line = line;
    this.others = others;
  }
}

/**
 * Parses RFC 4180 CSV with a header row: fields separated by commas, records by CRLF or LF;
 * a field in double quotes may hold commas, line breaks and doubled quotes (`""`). Blank lines
 * (empty or only whitespace, outside a quoted field) are skipped. A quote inside an unquoted field, text after a closing quote, an unterminated
 * quote, a record whose field count differs from the header's, or a duplicate or empty header
 * name is a CsvSyntaxError naming the record's line.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: RawRecord[] = [];
  // A quote problem stops the reading at its line; the records before it are still checked.
  let stopped: CsvSyntaxError | undefined;
  try {
    readRecords(text.startsWith('\uFEFF') ? text.slice(1) : text, records);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    stopped = error;
  }
  if (!records.length) throw stopped ?? new CsvSyntaxError(1, 'is empty; expected a header row naming the variables');
  const [header, ...rows] = records;
  const seen = new Set<string>();
  header.fields.forEach((name, index) => {
    if (!name.trim()) throw new CsvSyntaxError(header.line, `header column ${index + 1} is empty; every column needs a name`);
    if (seen.has(name)) throw new CsvSyntaxError(header.line, `header names "${name}" twice; column names must be unique`);
    seen.add(name);
  });
  // Every record with the wrong number of fields at once (a file is fixed in one pass).
  const miscounted = rows
    .filter(({ fields }) => fields.length !== header.fields.length)
    .map(
      ({ line, fields }) =>
        new CsvSyntaxError(line, `has ${fields.length} field(s); expected ${header.fields.length} (the header's: ${header.fields.join(', ')})`),
    );
  const problems = stopped ? [...miscounted, stopped] : miscounted;
  if (problems.length) throw new CsvSyntaxError(problems[0].line, problems[0].message, problems.slice(1));
  return rows.map(({ line, fields }) => ({ line, values: Object.fromEntries(header.fields.map((name, index) => [name, fields[index]])) }));
}

interface RawRecord {
  line: number;
  fields: string[];
}

/** Splits text into records of raw fields, each with the line it starts on, pushed to `records` as read. */
function readRecords(text: string, records: RawRecord[]): void {
  let line = 1;
  let position = 0;
  while (position < text.length) {
    const start = line;
    const fields: string[] = [];
    let quoted = false;
    // One record: fields until an unquoted line break or the end of the text.
    for (;;) {
      let field = '';
      if (text[position] === '"') {
        quoted = true;
        position++;
        for (;;) {
          if (position >= text.length) throw new CsvSyntaxError(start, 'has a quoted field that is never closed (a missing `"`)');
          const char = text[position];
          if (char === '"') {
            if (text[position + 1] === '"') {
              field += '"';
              position += 2;
              continue;
            }
            position++;
            break;
          }
          if (char === '\n') line++;
          field += char;
          position++;
        }
        const next = text[position];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new CsvSyntaxError(line, 'has text after a closing quote; write a quote inside a quoted field as ""');
        }
      } else {
        while (position < text.length && text[position] !== ',' && text[position] !== '\n' && text[position] !== '\r') {
          if (text[position] === '"') throw new CsvSyntaxError(line, 'has a quote inside an unquoted field; quote the whole field and double the quote ("")');
          field += text[position];
          position++;
        }
      }
      fields.push(field);
      if (text[position] === ',') {
        position++;
        continue;
      }
      break;
    }
    if (text[position] === '\r') position++;
    if (text[position] === '\n') {
      position++;
      line++;
    }
    // A blank line (empty or only whitespace, as a blank JSONL line) is one unquoted field with
    // nothing but whitespace: skipped rather than read as a record (docs/formats.md).
    if (quoted || fields.length > 1 || fields[0].trim() !== '') records.push({ line: start, fields });
  }
}
