import { describe, expect, it } from 'vitest';
import { clipToWidth, displayWidth, splitAtWidth } from '../../../src/runner/reporters/format/display-width.js';
import { wrapCell, wrapText } from '../../../src/runner/reporters/format/wrap-text.js';

describe('displayWidth', () => {
  it('counts East Asian wide and fullwidth characters and emoji as two columns, combining marks as none', () => {
    expect(displayWidth('refund')).toBe(6);
    expect(displayWidth('返金リクエスト')).toBe(14);
    expect(displayWidth('한국어')).toBe(6);
    expect(displayWidth('ＡＢ')).toBe(4);
    // Halfwidth katakana stays one column.
    expect(displayWidth('ｱｲｳ')).toBe(3);
    expect(displayWidth('🚀🚀')).toBe(4);
    expect(displayWidth('👨‍👩‍👧')).toBe(2);
    expect(displayWidth('🇯🇵')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('\u001b[31mred\u001b[39m')).toBe(3);
  });

  it('splits and clips at a column, never inside a character', () => {
    expect(splitAtWidth('ストは注文', 5)).toEqual(['スト', 'は注文']);
    expect(splitAtWidth('a🚀b', 2)).toEqual(['a', '🚀b']);
    expect(clipToWidth('返金リクエスト', 6)).toBe('返金…');
    expect(clipToWidth('返金', 4)).toBe('返金');
  });
});

describe('wrapping by display width', () => {
  const japanese = 'ストは注文を検索して確認してから返金する必要があります 🚀🚀';

  it('wraps CJK text into lines no wider than the width and loses no character', () => {
    const lines = wrapText(`output was "${japanese}${japanese}"`, 40, '  ');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(40);
    expect(
      lines
        .map((line) => line.trim())
        .join('')
        .replace(/ /g, ''),
    ).toBe(`outputwas"${japanese}${japanese}"`.replace(/ /g, ''));
  });

  it('breaks a table cell of wide characters between them, also in a column that wraps at spaces', () => {
    const id = 'w.scenarios.yaml#返金リクエスト';
    const broken = wrapCell(id, 10, true).split('\n');
    for (const line of broken) expect(displayWidth(line), line).toBeLessThanOrEqual(10);
    expect(broken.join('')).toBe(id);
    expect(wrapCell('返金リクエスト 返金', 8, false)).toBe('返金リク\nエスト\n返金');
    // A long word of narrow characters stays whole there (the table ends it with an ellipsis).
    expect(wrapCell('a verylongword', 6, false)).toBe('a\nverylongword');
  });
});

describe('the measure the table pads with', () => {
  it('agrees with cli-table3, so every line of a table of odd characters is as wide as its border', async () => {
    const { default: Table } = await import('cli-table3');
    // A zero-width space, a Thai vowel sign and a variation selector are measured alike by both.
    const cells = ['a\u200bb', 'ก\u0e34น', '✔\ufe0f ok', '返金リクエスト', 'e\u0301'];
    const table = new Table({ head: ['cell', 'clipped'], style: { head: [], border: [] } });
    for (const cell of cells) table.push([cell, clipToWidth(`${cell}${cell}${cell}`, 7)]);
    const lines = table.toString().split('\n');
    const border = displayWidth(lines[0]);
    for (const line of lines) expect(displayWidth(line), line).toBe(border);
  });
});
