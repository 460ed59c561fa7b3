import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from '../../../src/runner/scenario/csv.js';

function syntaxError(text: string): CsvSyntaxError {
  try {
    parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return error;
    throw error;
  }
  throw new Error('expected a CsvSyntaxError');
}

describe('parseCsv (RFC 4180 with a header row)', () => {
  it('reads plain records with their starting line, CRLF or LF, and skips blank lines', () => {
    expect(parseCsv('id,amount\r\n1,20\r\n\r\n2,30\n')).toEqual([
      { line: 2, values: { id: '1', amount: '20' } },
      { line: 4, values: { id: '2', amount: '30' } },
    ]);
  });

  it('skips a whitespace-only line as a blank one, with one column or more; a quoted blank field is a value', () => {
    expect(parseCsv('id\n1\n   \n2\n\t\r\n')).toEqual([
      { line: 2, values: { id: '1' } },
      { line: 4, values: { id: '2' } },
    ]);
    expect(parseCsv(' \nid,amount\n1,20\n   \n2,30\n \t ')).toEqual([
      { line: 3, values: { id: '1', amount: '20' } },
      { line: 5, values: { id: '2', amount: '30' } },
    ]);
    expect(parseCsv('id\n"   "\n')).toEqual([{ line: 2, values: { id: '   ' } }]);
  });

  it('reads quoted fields holding commas, doubled quotes and line breaks, and counts lines inside them', () => {
    const records = parseCsv('id,note\n1,"a, b"\n2,"say ""hi"""\n3,"two\nlines"\n4,""\n5,x\n');
    expect(records.map((r) => r.values.note)).toEqual(['a, b', 'say "hi"', 'two\nlines', '', 'x']);
    expect(records.map((r) => r.line)).toEqual([2, 3, 4, 6, 7]);
  });

  it('keeps empty fields and a last record without a line break; drops a byte order mark', () => {
    expect(parseCsv('\uFEFFa,b,c\n,,\n1,2,3')).toEqual([
      { line: 2, values: { a: '', b: '', c: '' } },
      { line: 3, values: { a: '1', b: '2', c: '3' } },
    ]);
  });

  it('refuses malformed records, naming the line', () => {
    expect(syntaxError('a,b\n1,2\n3\n')).toMatchObject({ line: 3, message: expect.stringMatching(/1 field\(s\); expected 2/) });
    expect(syntaxError('a,b\n1,"open\n2,3\n')).toMatchObject({ line: 2, message: expect.stringMatching(/never closed/) });
    expect(syntaxError('a,b\n1,"x"y\n')).toMatchObject({ line: 2, message: expect.stringMatching(/text after a closing quote/) });
    expect(syntaxError('a,b\n1,x"y\n')).toMatchObject({ line: 2, message: expect.stringMatching(/quote inside an unquoted field/) });
    expect(syntaxError('a,a\n1,2\n').message).toMatch(/names "a" twice/);
    expect(syntaxError('a,\n1,2\n').message).toMatch(/column 2 is empty/);
    expect(syntaxError('').message).toMatch(/is empty/);
  });

  it('names every record with the wrong number of fields at once', () => {
    const error = syntaxError('order_id,reason\n1,a,extra\n2\n3,c\n4\n');
    expect([error, ...error.others].map((problem) => `${problem.line}: ${problem.message}`)).toEqual([
      "2: has 3 field(s); expected 2 (the header's: order_id, reason)",
      "3: has 1 field(s); expected 2 (the header's: order_id, reason)",
      "5: has 1 field(s); expected 2 (the header's: order_id, reason)",
    ]);
    // A quote problem stops the reading at its line, after the records before it were checked.
    const both = syntaxError('order_id,reason\n1,a,extra\n2,"open\n');
    expect([both, ...both.others].map((problem) => problem.line)).toEqual([2, 3]);
    expect(both.others[0].message).toMatch(/never closed/);
  });
});
