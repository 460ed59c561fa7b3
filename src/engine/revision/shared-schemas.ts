import { TOOL_NAME_PATTERN } from '../../config/format-patterns.js';

/** The small schemas several parts of the agent build format share (one object each: the generated types name it once). */

/** A tool's name, as a model may call it. */
export const toolName = { type: 'string', pattern: TOOL_NAME_PATTERN };
export const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
export const objectSchema = { type: 'object' };
