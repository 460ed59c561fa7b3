import { stringArg } from './args.js';
import type { BuiltinTool } from './builtin-tool.js';

/** echo {text} -> the text; plans use it to log (docs/workflows.md, STEP plans). */
export const echoTool: BuiltinTool = {
  description: 'Return the given text unchanged.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to return' } },
    required: ['text'],
    additionalProperties: false,
  },
  readOnly: true,
  async run(args) {
    return stringArg('echo', args, 'text');
  },
};
