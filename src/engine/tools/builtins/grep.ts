import { readFile, stat } from 'node:fs/promises';
import { cutLength } from '../../../config/cap-text.js';
import { limitArg, optionalStringArg, regexArg } from './args.js';
import { MAX_FILE_BYTES, type BuiltinTool } from './builtin-tool.js';
import { BUILTIN_PARAMETERS } from './builtin-parameters.js';
import { readUnlessGone } from './file-error.js';
import { listFiles } from './walk.js';

const NAME = 'grep';
/** A NUL byte in this many leading bytes marks a file as binary (git's heuristic). */
const BINARY_SNIFF_BYTES = 8000;
/** Longer matching lines are cut, so one minified file cannot flood the model's context. */
const MAX_LINE_CHARS = 1000;

/** One matching line. */
export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

/** grep {pattern, path='.', limit=100} -> [{path, line, text}], line 1-based; skips binary and >1 MB files. */
export const grepTool: BuiltinTool = {
  description:
    'Search workspace files for lines matching a regular expression; returns [{path, line, text}] with 1-based line numbers. Binary files and files over 1 MB are skipped.',
  parameters: BUILTIN_PARAMETERS.grep,
  readOnly: true,
  async run(args, ctx) {
    const pattern = regexArg(NAME, args, 'pattern');
    const relative = optionalStringArg(NAME, args, 'path', '.');
    const limit = limitArg(NAME, args, 'limit', 100);
    const matches: GrepMatch[] = [];
    for (const file of await listFiles(NAME, ctx.workspace, relative)) {
      const info = await readUnlessGone(NAME, file.relative, () => stat(file.absolute));
      if (!info || info.size > MAX_FILE_BYTES) continue;
      const bytes = await readUnlessGone(NAME, file.relative, () => readFile(file.absolute));
      if (!bytes || bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) continue;
      const lines = bytes.toString('utf8').split(/\r?\n/);
      for (let index = 0; index < lines.length; index++) {
        if (!pattern.test(lines[index])) continue;
        matches.push({ path: file.relative, line: index + 1, text: clip(lines[index]) });
        if (matches.length >= limit) return matches;
      }
    }
    return matches;
  },
};

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, cutLength(line, MAX_LINE_CHARS))}...` : line;
}
