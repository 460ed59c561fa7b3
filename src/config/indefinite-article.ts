/** `a tool_called` or `an approval`: the article English puts before `word` (by its first letter). */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}
