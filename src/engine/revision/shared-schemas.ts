/** The small schemas several parts of the agent build format share (one object each: the generated types name it once). */

/** A tool's name, as a model may call it. */
export const toolName = { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' };
export const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
export const objectSchema = { type: 'object' };
