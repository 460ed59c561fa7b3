import { describe, expect, it } from 'vitest';
import { revisionFromValue } from '../../../../src/engine/revision/load-build.js';
import { agentBuildSchema } from '../../../../src/engine/revision/schema.js';
import { IMPLEMENTATION_KEYS, TOOL_KINDS } from '../../../../src/engine/tools/kinds/index.js';

const build = (tool: Record<string, unknown>) => ({ id: 'x', agent: { name: 'x', tools: [{ name: 't', description: 'T.', ...tool }] } });

describe('the tool kind registry', () => {
  it('has exactly the implementation keys validation uses, and the build schema describes each', () => {
    expect(IMPLEMENTATION_KEYS).toEqual(Object.keys(TOOL_KINDS));
    const toolProperties = (agentBuildSchema.properties.agent.properties.tools.items as { properties: Record<string, unknown> }).properties;
    for (const key of IMPLEMENTATION_KEYS) expect(toolProperties).toHaveProperty(key);
    expect(() => revisionFromValue(build({}))).toThrow(`tool "t" needs exactly one implementation key (${IMPLEMENTATION_KEYS.join(', ')})`);
    expect(() => revisionFromValue(build({ returns: 1, echo: 1 }))).toThrow(/unknown key "echo"/);
    expect(() => revisionFromValue(build({ returns: 1, builtin: 'echo' }))).toThrow(
      'tool "t" has builtin and returns; expected exactly one implementation key',
    );
  });
});
