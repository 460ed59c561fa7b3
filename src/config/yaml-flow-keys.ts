/**
 * The `yaml` package cannot read a flow list or mapping used as an implicit key after the first
 * key of an indented mapping (`  {x: 1}: 2`, `  [a, b]: 3`): it fails ("Map comment with trailing
 * content") where js-yaml reads the made-up key ("[object Object]", "a,b"), and the file would lose
 * every line:col. The located parser is given the text with each such key replaced by a quoted
 * placeholder of the same length, so every position stays; the placeholders say which keys were
 * lists or mappings (yaml-complex-keys.ts refuses them at the key, docs/formats.md).
 */
export function maskFlowKeys(text: string): { text: string; placeholders: ReadonlySet<string> } {
  const placeholders = new Set<string>();
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    // An implicit key is on one line: at its start, after the indentation and any `- `.
    const lead = /^[ \t]*(?:-[ \t]+)*(?=[[{])/.exec(line);
    if (!lead) continue;
    const start = lead[0].length;
    const end = flowEnd(line, start);
    if (end === -1 || !/^[ \t]*:(?:[ \t]|$)/.test(line.slice(end + 1))) continue;
    const width = end - start - 1;
    const id = placeholders.size.toString(36);
    // Too short to hold a unique placeholder (`{}`): left as it is.
    if (width < id.length + 1) continue;
    const placeholder = `~${id}`.padEnd(width, '~');
    placeholders.add(placeholder);
    lines[index] = `${line.slice(0, start)}"${placeholder}"${line.slice(end + 1)}`;
  }
  return { text: lines.join('\n'), placeholders };
}

/** The index of the bracket that closes the flow collection opening at `start` on this line, or -1. */
function flowEnd(line: string, start: number): number {
  let depth = 0;
  for (let i = start; i < line.length; i++) {
    const char = line[i];
    if (char === '"' || char === "'") {
      i = quoteEnd(line, i);
      if (i === -1) return -1;
    } else if (char === '#' && /\s/.test(line[i - 1] ?? '')) return -1;
    else if (char === '[' || char === '{') depth++;
    else if (char === ']' || char === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The index of the quote closing the one at `start` (`''` and `\"` escapes), or -1. */
function quoteEnd(line: string, start: number): number {
  const quote = line[start];
  for (let i = start + 1; i < line.length; i++) {
    if (quote === '"' && line[i] === '\\') i++;
    else if (line[i] === quote) {
      if (quote === "'" && line[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}
