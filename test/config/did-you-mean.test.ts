import { describe, expect, it } from 'vitest';
import { closestWord, nearKey } from '../../src/config/did-you-mean.js';

describe('closestWord', () => {
  it('finds a word within a few edits, ignoring case, and nothing further', () => {
    expect(closestWord('temprature', ['temperature', 'top_p'])).toBe('temperature');
    expect(closestWord('TOP_P', ['temperature', 'top_p'])).toBe('top_p');
    expect(closestWord('zzz', ['temperature', 'top_p'])).toBeUndefined();
    // A shortened name is no typo: route values and file shapes rely on this.
    expect(closestWord('user', ['user_id'])).toBeUndefined();
  });

  it('offers nothing for an empty or blank word, which is missing rather than misspelt', () => {
    expect(closestWord('', ['table', 'json', 'md'])).toBeUndefined();
    expect(closestWord('  ', ['md'])).toBeUndefined();
    expect(nearKey('', ['md'])).toBeUndefined();
  });
});

describe('nearKey (an unknown key)', () => {
  it('is the closest word, else the one candidate the key starts', () => {
    expect(nearKey('temprature', ['temperature', 'top_p'])).toBe('temperature');
    expect(nearKey('user', ['user_id'])).toBe('user_id');
    expect(nearKey('temp', ['temperature', 'top_p', 'top_k'])).toBe('temperature');
    // An edit-distance match wins over a longer key the word starts.
    expect(nearKey('tool', ['tools', 'tool_choice'])).toBe('tools');
  });

  it('says nothing when the start leaves doubt or is too short', () => {
    expect(nearKey('max', ['max_tokens', 'max_completion_tokens', 'seed'])).toBeUndefined();
    expect(nearKey('st', ['stop_sequences'])).toBeUndefined();
    expect(nearKey('zzz', ['user_id'])).toBeUndefined();
  });
});
