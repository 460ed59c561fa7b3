import { describe, expectTypeOf, it } from 'vitest';
import type { Message } from '../../src/engine/model/message.js';
import type { ApprovalPolicy } from '../../src/engine/permissions/approval-policy.js';
import type { ScriptEntry } from '../../src/engine/providers/scripted.js';
import type { RegisteredProvider } from '../../src/engine/providers/registry.js';
import type { SkillSpec } from '../../src/engine/revision/build-format.generated.js';
import type { ProviderName } from '../../src/engine/revision/types.js';
import type { SkillOptions } from '../../src/engine/skills-delivery.js';
import type { CassetteMode } from '../../src/runner/cassettes/cassette.js';
import type { HttpMock } from '../../src/runner/mocks/http-mocks.js';
import type { ReporterName } from '../../src/runner/reporters/index.js';
import type { ApprovalsSpec, HttpMockSpec, MessageSpec, ScriptEntrySpec, SkillOptionsSpec } from '../../src/runner/scenario/scenario-format.generated.js';
import type { CassettesSpec, SuiteConfigSpec } from '../../src/runner/suite/suite-config-format.generated.js';
import type { SkillEntry } from '../../src/skills/skill-entry.js';

// The format types are generated from the schemas (test/config/format-types.test.ts keeps them
// current; docs/architecture.md, Formats). What is left to drift are the hand-written types the
// code keeps beside them (a layer that may not import the generated file, a registry's names,
// the engine's richer runtime types): the typecheck (npm run typecheck, which covers test/)
// fails here when one of them no longer agrees with its format.
describe('hand-written types and the generated format types', () => {
  it('name the same values as the registries', () => {
    expectTypeOf<ProviderName>().toEqualTypeOf<RegisteredProvider>();
    expectTypeOf<NonNullable<SuiteConfigSpec['reporters']>[number]>().toEqualTypeOf<ReporterName>();
    expectTypeOf<NonNullable<CassettesSpec['mode']>>().toEqualTypeOf<CassetteMode>();
  });

  it('are the same where another layer keeps its own copy', () => {
    // src/skills may not import the engine, so it keeps SkillEntry; the build lists SkillSpec.
    expectTypeOf<SkillEntry>().toEqualTypeOf<SkillSpec>();
    expectTypeOf<SkillOptions>().toEqualTypeOf<SkillOptionsSpec>();
  });

  it('fit the runtime types a loaded value is handed to', () => {
    expectTypeOf<MessageSpec>().toExtend<Message>();
    expectTypeOf<ScriptEntrySpec>().toExtend<ScriptEntry>();
    expectTypeOf<ApprovalsSpec>().toExtend<ApprovalPolicy>();
    expectTypeOf<HttpMockSpec>().toExtend<HttpMock>();
  });
});
