import { quoteCapped } from '../config/cap-text.js';
import { ConfigError } from '../config/errors.js';
import type { Revision } from './revision/types.js';
import { buildAgent } from './revision/build-agent.js';

/** The OpenTelemetry switch for GenAI message content on spans (docs/spans.md). */
export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

/**
 * Whether a run records message content on its chat spans (docs/spans.md, Message content
 * capture). The environment switch decides when set (`true` or `false`, in any letter case), for every run; else a
 * library caller's own `captureContent`; else content is captured for scripted models and
 * cassette runs (test data, nothing private) and not for live providers, as the GenAI
 * conventions recommend.
 */
export function captureContent(
  revision: Revision,
  run: { script?: unknown; model?: unknown; cassette?: unknown; captureContent?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const flag = captureContentFlag(env);
  if (flag !== undefined) return flag;
  if (run.captureContent !== undefined) return run.captureContent;
  if (run.cassette || run.script) return true;
  // A Model object handed in by a library caller is its own business: treat it as live.
  if (run.model) return false;
  return (buildAgent(revision.build).llm?.provider ?? 'scripted') === 'scripted';
}

/**
 * The environment switch: true, false, or undefined when unset or empty; any other value (`1`,
 * `yes`, ` true` with a space) is a ConfigError. OpenTelemetry's rule for boolean variables:
 * `true` or `false` in any letter case, an empty value read as unset.
 */
export function captureContentFlag(env: Readonly<Record<string, string | undefined>>): boolean | undefined {
  const value = env[CAPTURE_CONTENT_ENV];
  if (value === undefined || value === '') return undefined;
  const flag = value.toLowerCase();
  if (flag === 'true') return true;
  if (flag === 'false') return false;
  throw new ConfigError({ file: CAPTURE_CONTENT_ENV }, `expected true or false, got ${quoteCapped(value)}`);
}

/** A library invoke's or resume's options with `captureContent` decided as testRun decides it. */
export function withContentCapture<
  Options extends { script?: unknown; model?: unknown; captureContent?: boolean; env?: Readonly<Record<string, string | undefined>> },
>(revision: Revision, options: Options): Options {
  return { ...options, captureContent: captureContent(revision, options, options.env ?? process.env) };
}
