import { describe, expectTypeOf, it } from 'vitest';
import { agentBuildSchema } from '../../src/engine/revision/schema.js';
import type { AgentBuild, AgentSpec, ComponentSpec, FlowSpec, LlmSpec, RouterSpec, ToolSpec } from '../../src/engine/revision/types.js';

// A first guard of "one source of truth for formats" (docs/architecture.md, Formats): until the
// types are derived from the schemas, the typecheck (npm run typecheck, which covers test/)
// fails when a key is added to a schema and not to its type, or the other way round.
type Keys<S> = S extends { properties: infer P } ? keyof P : never;

const build = agentBuildSchema.properties;
const agent = build.agent.properties;
const flow = build.flow.properties;

describe('agent build types and JSON Schema', () => {
  it('have the same keys at every level', () => {
    expectTypeOf<keyof AgentBuild>().toEqualTypeOf<keyof typeof build>();
    expectTypeOf<keyof AgentSpec>().toEqualTypeOf<keyof typeof agent>();
    expectTypeOf<keyof LlmSpec>().toEqualTypeOf<Keys<typeof agent.llm>>();
    expectTypeOf<keyof ToolSpec>().toEqualTypeOf<Keys<typeof agent.tools.items>>();
    expectTypeOf<keyof FlowSpec>().toEqualTypeOf<keyof typeof flow>();
    expectTypeOf<keyof ComponentSpec>().toEqualTypeOf<Keys<typeof flow.components.items>>();
    expectTypeOf<keyof RouterSpec>().toEqualTypeOf<Keys<typeof flow.routers.items>>();
  });
});
