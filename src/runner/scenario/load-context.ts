import type { ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import type { LlmSpec, Revision } from '../../engine/revision/types.js';
import type { SkillOptions } from '../../engine/skills-delivery.js';
import type { GraderModel } from '../judge/grader-model.js';
import type { Scenario } from './scenario.js';

/** Shared while loading a suite: agent builds are parsed once however many scenarios use them. */
export interface LoadContext {
  agents: Map<string, Revision>;
  /** The build as a DeltaRevision with no delta, shared by the scenarios that change nothing. */
  plain?: Map<Revision, DeltaRevision>;
  /** Suite-level default model (`model` in agentcheck.config.yaml). */
  suiteModel?: Partial<LlmSpec>;
  /**
   * Locates a problem of the suite's `model` (at `model.<path>`) in the config file; `build`, the
   * agent build file, when the problem depends on that build.
   */
  suiteModelAt?: (path: PathSegments, expected: string, build?: string) => ConfigError;
  /** Suite-level default grader of judge checks (`judge.model` in agentcheck.config.yaml). */
  suiteGrader?: GraderModel;
  /** Locates a problem of the suite's `judge.model` in the config file. */
  suiteGraderAt?: (expected: string) => ConfigError;
  /** The suite's `judge` has problems, said at the config: checks that would use its grader are not checked against it. */
  suiteGraderInvalid?: boolean;
  /** With suiteGraderInvalid: what the suite's grader lacks besides its problems (graderGap). */
  suiteGraderGap?: string;
  /**
   * `; <config> may set <what>, but ...` when a suite config near the scenario file is not the
   * run's (passed-over-config.ts), else '': said where a setting such a config may hold is missing.
   */
  passedOverConfigHint?: (scenarioFile: string, what: string) => string;
  /**
   * The suite's variant deltas (`variants` in agentcheck.config.yaml): a tool a variant adds may
   * be answered in a scenario's `approvals.tools`. Without them, only the scenario's own
   * revision counts.
   */
  variants?: Record<string, unknown>;
  /** The suite's skill options (config `skills` plus `--overlay`): with the scenario's own, whether load_skill is offered. */
  skills?: SkillOptions;
  /** The flag that adds skill folders to the suite's runs (`--overlay`), named where load_skill is refused; none for a library caller. */
  overlayFlag?: string;
  /** The suite's `skills` has problems, said at the config: what its runs deliver is not known. */
  skillsInvalid?: boolean;
  /**
   * When given, every scenario whose build (with its delta) loaded is put here, with problems of
   * its own or not: the suite's variants are checked against that build in the same pass, also
   * when the scenario is not loaded (it, or another scenario of its file, has a problem).
   */
  subjects?: VariantSubject[];
  /**
   * Workspace folders already checked in this load, with the problem found (undefined: none):
   * each folder is walked once however many scenarios copy it (a file of 1,000 scenarios sharing
   * its defaults' workspace).
   */
  workspaceFolders?: Map<string, string | undefined>;
}

/**
 * What applying a suite's variants needs of a scenario; `beforeModel` when its revision is the
 * build with its delta only (its model override did not apply), which a variant changing the llm
 * cannot be judged against.
 */
export type VariantSubject = Pick<Scenario, 'id' | 'name' | 'tags' | 'agentFile' | 'revision'> & { beforeModel?: boolean };
