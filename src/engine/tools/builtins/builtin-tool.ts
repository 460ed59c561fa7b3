import type { ToolContext } from '../tool.js';

/**
 * A built-in tool (docs/formats.md, Tools): its own schema and read-only flag plus an implementation.
 * `run` returns the result or throws ToolError with a message the model can act on.
 */
export interface BuiltinTool {
  description: string;
  /** JSON Schema object: type object, properties, required, additionalProperties false. */
  parameters: Record<string, unknown>;
  readOnly: boolean;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<unknown>;
}

/** Files larger than this are refused by read_file and skipped by grep. */
export const MAX_FILE_BYTES = 1024 * 1024;
