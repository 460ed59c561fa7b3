import { describe, expect, it } from 'vitest';
import { couldMatchDigitText } from '../../src/config/regex-digit-text.js';
import { regexProblem } from '../../src/config/safe-regex.js';

describe('couldMatchDigitText: whether a regex could match a whole number written out', () => {
  it('is false for patterns no digit text holds a match of', () => {
    for (const pattern of ['^[a-z]+$', 'x', '\\.', '-1', '^1\\.5$', '\\D', '[^0-9]', '[]', '\\x41', '\\s|\\W', '(a|b)+', '1e', '\\cA', '^(?:true|false)$']) {
      expect(couldMatchDigitText(pattern), pattern).toBe(false);
    }
  });

  it('is true for patterns some digit text matches, however the digit is written, and for those an atom may skip', () => {
    for (const pattern of [
      '^1',
      '\\d',
      '.',
      '[^a-z]',
      '[^]',
      '\\x30',
      '\\u0035',
      '\\060',
      'x*',
      'a?1',
      '(?:a|7)',
      '(?<n>\\w)',
      'x{0,2}3',
      '^x*5?$',
      '^(?:|7)$',
      '^(?:\\d{0}|\\d)+$',
      '$^|3',
      '\\b\\d\\B',
      '[\\d]',
    ]) {
      expect(couldMatchDigitText(pattern), pattern).toBe(true);
    }
  });

  it('is false for a ^ before a $ with nothing between that takes a digit: only the empty text matches, and a number has one digit or more (black-box nit)', () => {
    for (const pattern of ['^$', '^\\d{0}$', '^\\b$', '^(?:)$', '^(?:x?|\\d{0})$', 'a|^()$', '(?:^$)', '1*^x?$']) {
      expect(couldMatchDigitText(pattern), pattern).toBe(false);
    }
  });

  it('holds every anchor and boundary to where it stands, in a group or after another: the text is not empty, so its end is not its start (black-box nit)', () => {
    // An anchor inside a group, a $ before a ^, a \B at an edge, a \b between two digits.
    for (const pattern of ['^(?:$)', '^(^$)$', '(?:^)$', '^(?:(?:$))', '$^', '$x*^', '(?:$)+^', '($)^|x', '$\\d', '^\\B', '\\B$', '^\\d\\b\\d']) {
      expect(couldMatchDigitText(pattern), pattern).toBe(false);
    }
    for (const pattern of ['\\B', '^\\d\\B', '\\b\\b', '^(?:$|1)', '(?:$^)*', '^\\d{1000}$', '(?:^|$)\\d', '$|^']) {
      expect(couldMatchDigitText(pattern), pattern).toBe(true);
    }
  });

  it('never says false of a pattern the regex engine matches some number text with (random patterns)', () => {
    const parts = [
      'a',
      '1',
      '\\d',
      '\\D',
      '\\w',
      '\\W',
      '\\s',
      '.',
      '[a-z]',
      '[^a-z]',
      '[0-3]',
      '[^0-9]',
      '[]',
      '[^]',
      '\\x30',
      '\\x41',
      '\\060',
      '\\0',
      '^',
      '$',
      '\\b',
      '(?:',
      '(',
      ')',
      '|',
      '*',
      '+',
      '?',
      '{2}',
      '{0,3}',
      '{0}',
      '{,2}',
      '\\.',
      '-',
      '[^\\d]',
      '(?<n>',
      '\\c0',
      '{',
      '}',
      ']',
      '\\B',
      '(?:$)',
      '(?:^)',
      '$^',
      '\\d+',
      '\\d*',
      '{1,}',
    ];
    // A fixed seed: the same patterns every run.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const numbers = Array.from({ length: 1000 }, (_v, i) => String(i));
    let tried = 0;
    for (let n = 0; n < 16000; n++) {
      let pattern = '';
      for (let k = 1 + Math.floor(next() * 6); k > 0; k--) pattern += parts[Math.floor(next() * parts.length)];
      if (regexProblem(pattern)) continue;
      tried++;
      const regex = new RegExp(pattern);
      if (numbers.some((text) => regex.test(text))) expect(couldMatchDigitText(pattern), pattern).toBe(true);
    }
    expect(tried).toBeGreaterThan(6000);
  });
});
