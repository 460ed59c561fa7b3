import { describe, expect, it } from 'vitest';
import { mdCell, mdText } from '../../../src/runner/reporters/format/md-escape.js';
import { cellText, toolsCell } from '../../../src/runner/reporters/format/row-cells.js';
import { printable } from '../../../src/runner/reporters/format/printable.js';
import { esc as htmlEscape } from '../../../src/runner/reporters/html/escape.js';
import { formatSeconds, summaryLine } from '../../../src/runner/reporters/format/summary-line.js';
import { report, row } from './fixture-report.js';
import { passRate } from '../../../src/runner/reporters/format/variant-stats.js';
import { xmlAttr, xmlEscape } from '../../../src/runner/reporters/format/xml-escape.js';

const tool = (name: string, called = 1) => ({ name, called, returned: called, errors: 0 });

describe('toolsCell', () => {
  it('lists tools in order with call counts', () => {
    expect(toolsCell([tool('lookup_order'), tool('create_refund', 2)])).toBe('lookup_order x1, create_refund x2');
    expect(toolsCell([])).toBe('-');
    expect(toolsCell(undefined)).toBe('-');
  });

  it('cuts long lists with a +N more tail within the limit', () => {
    const tools = Array.from({ length: 12 }, (_, i) => tool(`tool_number_${i}`));
    const text = toolsCell(tools, 48);
    expect(text.length).toBeLessThanOrEqual(48);
    expect(text).toBe('tool_number_0 x1, tool_number_1 x1 +10 more');
  });

  it('clips a very long name, keeping room for the tail', () => {
    const text = toolsCell([tool('x'.repeat(100)), tool('y'.repeat(20)), tool('z')], 48);
    expect(text.length).toBeLessThanOrEqual(48);
    expect(text).toMatch(/^x+… \+2 more$/);
  });
});

describe('escaping', () => {
  it('escapes XML text and attributes and strips forbidden characters', () => {
    expect(xmlEscape('<a href="x">&\'</a>\u0001\u001b')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
    expect(xmlAttr('a\nb\tc')).toBe('a&#10;b&#9;c');
    expect(xmlEscape('emoji 😀 ok')).toBe('emoji 😀 ok');
  });

  it('escapes Markdown cells so they stay one cell on one line', () => {
    expect(mdCell('a | b\nc')).toBe('a \\| b<br>c');
    expect(mdText('<b>*x*</b> & [y]')).toBe('&lt;b&gt;\\*x\\*&lt;/b&gt; &amp; \\[y\\]');
  });

  it('shows bidi overrides and isolates instead of letting them reorder a name, in every format', () => {
    const name = 'refund \u202egnp.exe\u202c and \u2067x\u2069';
    expect(printable(name)).toBe('refund <U+202E>gnp.exe<U+202C> and <U+2067>x<U+2069>');
    expect(cellText(name)).toBe('refund <U+202E>gnp.exe<U+202C> and <U+2067>x<U+2069>');
    expect(htmlEscape(name)).toBe('refund &lt;U+202E&gt;gnp.exe&lt;U+202C&gt; and &lt;U+2067&gt;x&lt;U+2069&gt;');
    expect(xmlEscape(name)).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    // Letters of right-to-left scripts and the plain direction marks stay as written.
    expect(printable('שלום \u200f ok')).toBe('שלום \u200f ok');
  });

  it('shows a carriage return that ends no line, so text after it cannot print over the text before', () => {
    expect(printable('I deleted prod\rverdict: PASS')).toBe('I deleted prod<U+000D>verdict: PASS');
    expect(printable('line 1\r\nline 2\r')).toBe('line 1\r\nline 2<U+000D>');
  });

  it('removes an operating system command (a window title) whole, not only its ESC and BEL', () => {
    expect(printable('a\u001b]0;pwned\u0007b \u001b]2;t\u001b\\c')).toBe('ab c');
  });
});

describe('numbers', () => {
  it('formats durations and pass rates', () => {
    expect(formatSeconds(3210)).toBe('3.2 s');
    expect(formatSeconds(125_000)).toBe('2 min 5 s');
    expect(passRate({ passed: 2, counted: 3 })).toBe('66.7%');
    expect(passRate({ passed: 0, counted: 0 })).toBe('-');
  });
});

describe('summaryLine', () => {
  it('writes the run count as a product only when every scenario x variant x repeat ran', () => {
    const all = ['a', 'b'].flatMap((name) => ['base', 'lean'].map((variant) => row('s.yaml', name, { variant })));
    expect(summaryLine(report(all))).toMatch(/^4 runs \(2 scenarios x 2 variants\): 4 passed/);
    // --only-failed reran a under base and lean, b under lean only: 3 runs, not 2 x 2.
    const some = all.filter((r) => !(r.name === 'b' && r.variant === 'base'));
    expect(summaryLine(report(some))).toMatch(/^3 runs \(2 scenarios, 2 variants: not every combination\): 3 passed/);
  });
});
