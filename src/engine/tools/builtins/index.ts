import type { BuiltinName } from '../../revision/types.js';
import type { BuiltinTool } from './builtin-tool.js';
import { echoTool } from './echo.js';
import { editFileTool } from './edit_file.js';
import { findFilesTool } from './find_files.js';
import { grepTool } from './grep.js';
import { listDirTool } from './list_dir.js';
import { readFileTool } from './read_file.js';
import { runCommandTool } from './run_command.js';
import { writeFileTool } from './write_file.js';

export type { BuiltinTool } from './builtin-tool.js';

/** The built-in tools by their built-in name (docs/formats.md, Tools). A map only: no logic here. */
export const BUILTINS: Readonly<Record<BuiltinName, BuiltinTool>> = {
  read_file: readFileTool,
  write_file: writeFileTool,
  edit_file: editFileTool,
  list_dir: listDirTool,
  find_files: findFilesTool,
  grep: grepTool,
  run_command: runCommandTool,
  echo: echoTool,
};
