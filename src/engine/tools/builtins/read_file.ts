import { readFile, stat } from 'node:fs/promises';
import { ToolError } from '../../../config/errors.js';
import { stringArg } from './args.js';
import { MAX_FILE_BYTES, type BuiltinTool } from './builtin-tool.js';
import { BUILTIN_PARAMETERS } from './builtin-parameters.js';
import { fileError, folderNotFileError } from './file-error.js';
import { refuseSpecialFile, requireFilePath } from './regular-file.js';

const NAME = 'read_file';

/** read_file {path} -> the file's text; refuses folders and files over 1 MB. */
export const readFileTool: BuiltinTool = {
  description: 'Read a text file from the workspace. Paths are relative to the workspace root.',
  parameters: BUILTIN_PARAMETERS.read_file,
  readOnly: true,
  async run(args, ctx) {
    const relative = stringArg(NAME, args, 'path');
    requireFilePath(NAME, relative);
    try {
      const file = await ctx.workspace.resolve(relative);
      await refuseSpecialFile(NAME, relative, file);
      const info = await stat(file);
      if (info.isDirectory()) throw folderNotFileError(NAME, relative);
      if (info.size > MAX_FILE_BYTES) {
        throw new ToolError(
          NAME,
          `${relative} is ${info.size} bytes, over read_file's 1 MB limit (grep and find_files skip such files too); read a part of it with a command, if the build offers one`,
          'FILE_TOO_LARGE',
        );
      }
      return await readFile(file, 'utf8');
    } catch (error) {
      throw fileError(NAME, relative, error);
    }
  },
};
