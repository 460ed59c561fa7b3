import { describe, expectTypeOf, it } from 'vitest';
import { agentBuildSchema } from '../../src/engine/revision/schema.js';
import type { AgentBuild, AgentSpec, ComponentSpec, ExternalHttpSpec, ExternalSpec, ExternalToolSpec, FlowSpec, LlmSpec, RouterSpec, ToolSpec } from '../../src/engine/revision/types.js';

// A first guard of "one source of truth for formats" (docs/architecture.md, Formats): until the
// types are derived from the schemas, the typecheck (npm run typecheck, which covers test/)
// fails when a key is added to a schema and not to its type, or the other way round.
type Keys<S> = S extends { properties: infer P } ? keyof P : never;

type Build = typeof agentBuildSchema.properties;
type Agent = Build['agent']['properties'];
type Flow = Build['flow']['properties'];
type External = Build['external']['properties'];

describe('agent build types and JSON Schema', () => {
  it('have the same keys at every level', () => {
    expectTypeOf<keyof AgentBuild>().toEqualTypeOf<keyof Build>();
    expectTypeOf<keyof AgentSpec>().toEqualTypeOf<keyof Agent>();
    expectTypeOf<keyof LlmSpec>().toEqualTypeOf<Keys<Agent['llm']>>();
    expectTypeOf<keyof ToolSpec>().toEqualTypeOf<Keys<Agent['tools']['items']>>();
    expectTypeOf<keyof FlowSpec>().toEqualTypeOf<keyof Flow>();
    expectTypeOf<keyof ComponentSpec>().toEqualTypeOf<Keys<Flow['components']['items']>>();
    expectTypeOf<keyof RouterSpec>().toEqualTypeOf<Keys<Flow['routers']['items']>>();
    expectTypeOf<keyof ExternalSpec>().toEqualTypeOf<keyof External>();
    expectTypeOf<keyof ExternalHttpSpec>().toEqualTypeOf<Keys<External['http']>>();
    expectTypeOf<keyof ExternalToolSpec>().toEqualTypeOf<Keys<External['tools']['items']>>();
  });
});
