import { readdir, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { ToolError } from '../../../config/errors.js';
import { specialFileKind } from '../../../config/special-file.js';
import { optionalStringArg } from './args.js';
import type { BuiltinTool } from './builtin-tool.js';
import { BUILTIN_PARAMETERS } from './builtin-parameters.js';
import { fileError } from './file-error.js';

const NAME = 'list_dir';

/** list_dir {path='.'} -> sorted names, folders with a trailing '/'. */
export const listDirTool: BuiltinTool = {
  description: 'List the entries of a workspace folder, sorted; folders end with "/".',
  parameters: BUILTIN_PARAMETERS.list_dir,
  readOnly: true,
  async run(args, ctx) {
    const relative = optionalStringArg(NAME, args, 'path', '.');
    try {
      const dir = await ctx.workspace.resolve(relative);
      const info = await stat(dir);
      if (!info.isDirectory()) {
        // read_file reads a regular file only: a named pipe or device is said to be what it is.
        const special = specialFileKind(info);
        throw new ToolError(
          NAME,
          special ? `${relative} is ${special}, not a folder` : `${relative} is a file, not a folder; use read_file to read it`,
          'NOT_A_DIRECTORY',
        );
      }
      const entries = await readdir(dir, { withFileTypes: true });
      const names = await Promise.all(
        entries.map(async (entry) => {
          if (entry.isDirectory()) return `${entry.name}/`;
          if (!entry.isSymbolicLink()) return entry.name;
          // A symlink is followed only through the sandbox: one to a folder inside is a folder,
          // one leading outside (or nowhere) is listed by name alone.
          const target = await ctx.workspace.resolve(posix.join(relative, entry.name)).catch(() => undefined);
          const info = target ? await stat(target).catch(() => undefined) : undefined;
          return info?.isDirectory() ? `${entry.name}/` : entry.name;
        }),
      );
      return names.sort();
    } catch (error) {
      throw fileError(NAME, relative, error);
    }
  },
};
