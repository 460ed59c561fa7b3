import { quoteCapped } from '../../config/cap-text.js';
import { variableNameProblem } from './env-variable-name.js';
import type { FormatCheck, Locator } from '../../config/assert-format.js';
import { collectConfigErrors, type ConfigError } from '../../config/errors.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { BRIDGE_ENV_NAMES, SERVER_PORT_VARIABLE } from '../external/external-env.js';
import { RUN_TAG_VARIABLE } from '../tools/process/run-processes.js';
import { headerProblems } from './header-checks.js';
import { checkTemplatesClosed, httpUrlProblem, templateNames } from './template-checks.js';
import type { AgentBuild, ExternalSpec } from './types.js';
import { scrubCredentialShapes } from '../../config/redactor.js';
import { toolParametersProblems } from './tool-parameters-problems.js';

/** The placeholder an http engine's url may hold when agentcheck starts the server. */
export const PORT_PLACEHOLDER = '{port}';
/** Stands for the port when a url is checked: the largest, so a url that no port can fill (`:{port}0`) is refused. */
const SAMPLE_PORT = '65535';

/**
 * A build that names `external` and also `agent` or `flow` (docs/external-agents.md): one problem
 * per clashing key, located at the key. Checked on the value as written, whatever the format
 * says of either block, and reported beside their problems (the fix may be to delete one).
 */
export function checkBuildKindClash(build: unknown, locate: Locator): ConfigError[] {
  if (typeof build !== 'object' || build === null || Array.isArray(build)) return [];
  const keys = build as Record<string, unknown>;
  if (keys.external === undefined) return [];
  const clashes = (['agent', 'flow'] as const).filter((key) => keys[key] !== undefined);
  return clashes.map((key) =>
    locate(
      [key],
      `${quoteCapped(key)} and "external" cannot both be given: a build names exactly one of "agent" (with an optional "flow") and "external" (an external agent brings its own loop)`,
      true,
    ),
  );
}

/** A build that names neither `agent` nor `external`, located (after the format: a misspelt key is said first). */
export function checkBuildKind(build: AgentBuild, locate: Locator): ConfigError[] {
  if (build.external !== undefined || build.agent !== undefined) return [];
  return [locate([], 'expected an "agent" (with an optional "flow") or an "external" agent; the build has neither')];
}

/**
 * The rules of an `external` section the schema cannot say; every problem in one pass. With
 * format problems, each rule runs on the parts `format` leaves valid (or, for env names, typed).
 */
export function validateExternal(external: ExternalSpec, locate: Locator, format: Pick<FormatCheck, 'valid' | 'typed' | 'misspelt'>): ConfigError[] {
  const problems: ConfigError[] = [];
  const at = ['external'];
  // A misspelt `command` is the format's problem (its "did you mean"); counting engines then would
  // only echo it. Which engines are given is a matter of keys: said beside any problem of their values.
  const misspelt = format.misspelt([...at, 'command']) || format.misspelt([...at, 'http']);
  if (format.typed(at) && !misspelt)
    collectConfigErrors(problems, () => {
      const engines = (['command', 'http'] as const).filter((key) => external[key] !== undefined);
      if (engines.length !== 1) {
        throw locate(
          at,
          engines.length === 0
            ? 'an external agent needs exactly one of "command" (argv of a process) or "http" ({url, headers})'
            : 'an external agent has "command" and "http"; expected exactly one of them',
        );
      }
    });
  // Names are checked whatever the values hold (a number among them is the format's problem).
  const startsServer = format.typed([...at, 'http']) && external.http?.start !== undefined;
  for (const name of format.typed([...at, 'env']) ? Object.keys(external.env ?? {}) : []) {
    collectConfigErrors(problems, () => {
      const badName = variableNameProblem(name, 'env maps each name to its value: write NAME: value');
      if (badName) throw locate([...at, 'env', name], badName, true);
      if (BRIDGE_ENV_NAMES.includes(name)) {
        throw locate(
          [...at, 'env', name],
          `${quoteCapped(name)} is set by agentcheck to reach the run's model bridge or span receiver; it cannot be overridden`,
          true,
        );
      }
      if (name === RUN_TAG_VARIABLE) {
        throw locate(
          [...at, 'env', name],
          `${quoteCapped(name)} is set by agentcheck to mark the run's processes, so they end with it; it cannot be overridden`,
          true,
        );
      }
      if (name === SERVER_PORT_VARIABLE && startsServer) {
        throw locate(
          [...at, 'env', name],
          `${quoteCapped(name)} is set by agentcheck to the free port the server of http.start listens on (what {port} in the url stands for); it cannot be overridden`,
          true,
        );
      }
    });
  }
  // Each value (env's, a header's) on its own: one the format refused (a number) hides no other's template.
  problems.push(...envTemplateProblems(validValues(external.env, [...at, 'env'], format), [...at, 'env'], 'env values', locate));
  const http = external.http;
  const headers = validValues(http?.headers, [...at, 'http', 'headers'], format);
  problems.push(...envTemplateProblems(headers, [...at, 'http', 'headers'], 'headers', locate));
  problems.push(...headerProblems(headers, [...at, 'http', 'headers'], locate));
  if (http && format.valid([...at, 'http'])) {
    collectConfigErrors(problems, () => {
      const templated = http.url.includes(PORT_PLACEHOLDER);
      if (templated && !http.start)
        throw locate([...at, 'http', 'url'], `"${PORT_PLACEHOLDER}" in the url is the port of a server agentcheck starts; add "http.start" or write the port`);
      const problem = externalUrlProblem(http.url.replaceAll(PORT_PLACEHOLDER, SAMPLE_PORT), http.url);
      if (problem) throw locate([...at, 'http', 'url'], problem);
    });
    const spansUrl = http.spans_url;
    if (spansUrl !== undefined && !spansUrl.includes(PORT_PLACEHOLDER)) {
      collectConfigErrors(problems, () => {
        const problem = externalUrlProblem(spansUrl.replaceAll('{trace_id}', 'trace'), spansUrl);
        if (problem) throw locate([...at, 'http', 'spans_url'], problem);
      });
    }
    // spans_url is read after the turn, when a server agentcheck started has been stopped.
    if (http.spans_url?.includes(PORT_PLACEHOLDER)) {
      problems.push(
        locate(
          [...at, 'http', 'spans_url'],
          `"${PORT_PLACEHOLDER}" cannot be filled in here: spans_url is read after the turn, when the server agentcheck started is stopped; serve the spans from a fixed address, or send them over OTLP (docs/external-agents.md)`,
        ),
      );
    }
  }
  const seen = new Map<string, number>();
  (format.typed([...at, 'tools']) ? (external.tools ?? []) : []).forEach((tool, index) =>
    collectConfigErrors(problems, () => {
      const toolAt = [...at, 'tools', index];
      // The name counts for duplicates also when another key of the tool has a problem.
      if (!format.valid([...toolAt, 'name'])) return;
      const previous = seen.get(tool.name);
      if (previous !== undefined)
        throw locate([...toolAt, 'name'], `duplicate tool name ${quoteCapped(tool.name)} (already used by external.tools[${previous}])`);
      seen.set(tool.name, index);
      if (!format.valid(toolAt)) return;
      if (tool.parameters !== undefined) problems.push(...toolParametersProblems(tool.parameters, toolAt, locate));
    }),
  );
  return problems;
}

/** The entries of a map of strings (`external.env`, headers) the format left valid, each on its own; empty when the map itself is not one. */
function validValues(
  values: Record<string, string> | undefined,
  at: Array<string | number>,
  format: Pick<FormatCheck, 'valid' | 'typed'>,
): Record<string, string> {
  if (values === undefined || !format.typed(at)) return {};
  return Object.fromEntries(Object.entries(values).filter(([key]) => format.valid([...at, key])));
}

/**
 * Header and `external.env` values may read the environment only, as `{{ env.NAME }}`: the first
 * problem of each value, every value in one pass (docs/cli.md, validate).
 */
function envTemplateProblems(values: Record<string, string> | undefined, at: Array<string | number>, what: string, locate: Locator): ConfigError[] {
  const problems: ConfigError[] = [];
  for (const [key, value] of Object.entries(values ?? {})) {
    collectConfigErrors(problems, () => {
      checkTemplatesClosed(value, [...at, key], locate);
      for (const name of templateNames(value)) {
        const [head, variable, ...rest] = name.split('.');
        if (head !== 'env' || variable === undefined || rest.length) {
          throw locate(
            [...at, key],
            `unknown template "{{ ${name} }}": an external agent's ${what} read the environment only, as {{ env.NAME }}${didYouMean(head, ['env'])}`,
          );
        }
      }
    });
  }
  return problems;
}

/**
 * An http engine's URL is sent as written: no templates are filled in (only headers take
 * `{{ env.NAME }}`), and fetch refuses a URL with userinfo (`user@`, `user:password@`) in it.
 */
function externalUrlProblem(url: string, written = url): string | undefined {
  const problem = urlProblem(url, written);
  // A refused URL may hold a password or a token: said without them.
  return problem === undefined ? undefined : scrubCredentialShapes(problem);
}

function urlProblem(url: string, written: string): string | undefined {
  if (url.includes('{{'))
    return `templates are not filled in here (only external.http.headers take {{ env.NAME }}); write the URL, got ${JSON.stringify(written)}`;
  const problem = httpUrlProblem(url, written);
  if (problem) return written.includes(PORT_PLACEHOLDER) ? `${problem} (with ${PORT_PLACEHOLDER} filled in, e.g. ${SAMPLE_PORT})` : problem;
  const parsed = new URL(url);
  if (parsed.username || parsed.password) {
    return 'a URL with userinfo before its host (user@ or user:password@) cannot be sent (fetch refuses any); put the credentials in external.http.headers, e.g. Authorization: "Basic {{ env.AUTH }}"';
  }
  return undefined;
}
