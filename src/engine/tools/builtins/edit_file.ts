import { readFile, writeFile } from 'node:fs/promises';
import { ToolError } from '../../../config/errors.js';
import { stringArg } from './args.js';
import type { BuiltinTool } from './builtin-tool.js';
import { BUILTIN_PARAMETERS } from './builtin-parameters.js';
import { fileError } from './file-error.js';
import { refuseSpecialFile, requireFilePath } from './regular-file.js';

const NAME = 'edit_file';

/** edit_file {path, old, new} -> {ok: true, replacements}; replaces every exact occurrence of `old`. */
export const editFileTool: BuiltinTool = {
  description: 'Replace every exact occurrence of a piece of text in a workspace file.',
  parameters: BUILTIN_PARAMETERS.edit_file,
  readOnly: false,
  async run(args, ctx) {
    const relative = stringArg(NAME, args, 'path');
    const oldText = stringArg(NAME, args, 'old');
    const newText = stringArg(NAME, args, 'new');
    if (oldText === '') throw new ToolError(NAME, '"old" must not be empty; give the exact text to replace', 'INVALID_ARGUMENT');
    requireFilePath(NAME, relative);
    try {
      const file = await ctx.workspace.resolve(relative);
      await refuseSpecialFile(NAME, relative, file);
      const text = await readFile(file, 'utf8');
      // split/join, not String.replace: `old` is literal text and `$&` in `new` must stay as written.
      const parts = text.split(oldText);
      const replacements = parts.length - 1;
      if (replacements === 0) {
        throw new ToolError(NAME, `the "old" text was not found in ${relative}; read_file it and copy the exact text, whitespace included`, 'EDIT_NOT_FOUND');
      }
      await writeFile(file, parts.join(newText), 'utf8');
      return { ok: true, replacements };
    } catch (error) {
      throw fileError(NAME, relative, error);
    }
  },
};
