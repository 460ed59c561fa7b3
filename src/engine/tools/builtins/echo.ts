import { stringArg } from './args.js';
import type { BuiltinTool } from './builtin-tool.js';
import { BUILTIN_PARAMETERS } from './builtin-parameters.js';

/** echo {text} -> the text; plans use it to log (docs/workflows.md, STEP plans). */
export const echoTool: BuiltinTool = {
  description: 'Return the given text unchanged.',
  parameters: BUILTIN_PARAMETERS.echo,
  readOnly: true,
  async run(args) {
    return stringArg('echo', args, 'text');
  },
};
