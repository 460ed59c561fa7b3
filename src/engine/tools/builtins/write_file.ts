import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringArg } from './args.js';
import type { BuiltinTool } from './builtin-tool.js';
import { BUILTIN_PARAMETERS } from './builtin-parameters.js';
import { fileError } from './file-error.js';
import { refuseSpecialFile, requireFilePath } from './regular-file.js';

const NAME = 'write_file';

/** write_file {path, content} -> {ok: true, bytes}; creates missing parent folders inside the workspace. */
export const writeFileTool: BuiltinTool = {
  description: 'Create or overwrite a file in the workspace with the given text; missing folders are created.',
  parameters: BUILTIN_PARAMETERS.write_file,
  readOnly: false,
  async run(args, ctx) {
    const relative = stringArg(NAME, args, 'path');
    const content = stringArg(NAME, args, 'content');
    requireFilePath(NAME, relative);
    try {
      // resolve() checked the nearest existing ancestor, so the folders made here are new
      // names under a real folder inside the root.
      const file = await ctx.workspace.resolve(relative, { forWrite: true });
      await refuseSpecialFile(NAME, relative, file);
      // A file where a folder of the path belongs was refused by resolve() (fs_enotdir).
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content, 'utf8');
      return { ok: true, bytes: Buffer.byteLength(content, 'utf8') };
    } catch (error) {
      throw fileError(NAME, relative, error);
    }
  },
};
