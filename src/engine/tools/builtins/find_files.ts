import { limitArg, optionalStringArg, regexArg } from './args.js';
import type { BuiltinTool } from './builtin-tool.js';
import { BUILTIN_PARAMETERS } from './builtin-parameters.js';
import { listFiles } from './walk.js';

const NAME = 'find_files';

/** find_files {pattern, path='.', limit=100} -> sorted workspace-relative paths whose path matches. */
export const findFilesTool: BuiltinTool = {
  description: 'Find files whose workspace-relative path (with "/" separators) matches a regular expression; returns sorted paths. .git folders are skipped.',
  parameters: BUILTIN_PARAMETERS.find_files,
  readOnly: true,
  async run(args, ctx) {
    const pattern = regexArg(NAME, args, 'pattern');
    const relative = optionalStringArg(NAME, args, 'path', '.');
    const limit = limitArg(NAME, args, 'limit', 100);
    const files = await listFiles(NAME, ctx.workspace, relative);
    return files
      .map((file) => file.relative)
      .filter((name) => pattern.test(name))
      .slice(0, limit);
  },
};
