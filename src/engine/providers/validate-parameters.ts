import { quoteCapped } from '../../config/cap-text.js';
import { assertFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, type ConfigError, throwConfigErrors } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import { nearKey } from '../../config/did-you-mean.js';
import { ownValue } from '../../config/own-key.js';
import type { LlmSpec } from '../revision/types.js';
import { EXCLUSIVE_PARAMETERS, EXTRA_KEY, PARAMETER_ALIASES, PARAMETER_SCHEMAS, PARAMETER_SPECS, PROVIDER_OWNED_KEYS } from './parameter-specs.js';

/**
 * Validates `llm.parameters` for the provider that will receive them (docs/formats.md): every
 * key must be one the provider's API defines, with a value of the right type and range;
 * anything else goes under `parameters.extra`, which is sent as is. `at` is the path of
 * `parameters` for the locator; `refused` names keys this caller refuses itself (a grader's),
 * which a misspelt key's hint then does not offer and which are left to its message alone (one
 * problem per value, not also "unknown parameter").
 */
export function validateLlmParameters(
  llm: Pick<LlmSpec, 'provider' | 'parameters'> | undefined,
  locate: Locator,
  at: PathSegments = ['agent', 'llm', 'parameters'],
  refused: readonly string[] = [],
): void {
  const parameters = llm?.parameters;
  if (!llm || !parameters) return;
  const { provider } = llm;
  const known = PARAMETER_SPECS[provider];
  const offered = Object.keys(known).filter((key) => !refused.includes(key));
  // Every problem of the parameters is reported in one pass (validate's promise for a file).
  const problems: ConfigError[] = [];
  for (const [key, value] of Object.entries(parameters)) {
    if (key === EXTRA_KEY || refused.includes(key)) continue;
    if (!Object.hasOwn(known, key)) {
      const aliases = PARAMETER_ALIASES[provider];
      const alias = aliases && ownValue(aliases, key);
      const near = nearKey(key, offered);
      const hint = alias && !refused.includes(alias) ? `; ${provider} calls it ${quoteCapped(alias)}` : near ? `; did you mean ${quoteCapped(near)}?` : '';
      problems.push(
        locate(
          [...at, key],
          `unknown ${provider} parameter ${quoteCapped(key)}${hint}; expected one of: ${offered.join(', ')} (provider-specific extras go under parameters.${EXTRA_KEY})`,
          true,
        ),
      );
      continue;
    }
    // Each known key alone against the provider's schema, so one bad value does not hide the next.
    collectConfigErrors(problems, () =>
      assertFormat(PARAMETER_SCHEMAS[provider], { [key]: value }, (path, expected, atKey) => locate([...at, ...path], expected, atKey)),
    );
  }
  if (parameters[EXTRA_KEY] !== undefined) {
    collectConfigErrors(problems, () =>
      assertFormat(PARAMETER_SCHEMAS[provider], { [EXTRA_KEY]: parameters[EXTRA_KEY] }, (path, expected, atKey) => locate([...at, ...path], expected, atKey)),
    );
  }
  for (const [a, b] of EXCLUSIVE_PARAMETERS[provider] ?? []) {
    if (parameters[a] !== undefined && parameters[b] !== undefined) {
      problems.push(
        locate([...at, b], `${quoteCapped(a)} and ${quoteCapped(b)} cannot both be set: the ${provider} API refuses a request with both; keep one`, true),
      );
    }
  }
  const extra = parameters[EXTRA_KEY];
  const extraKeys = extra && typeof extra === 'object' && !Array.isArray(extra) ? Object.keys(extra) : [];
  for (const key of extraKeys) {
    // A refused key is the caller's to say, in extra too (a grader's response_format).
    if (refused.includes(key)) continue;
    if (PROVIDER_OWNED_KEYS[provider].includes(key)) {
      problems.push(locate([...at, EXTRA_KEY, key], `${quoteCapped(key)} is set by agentcheck itself and cannot be passed through extra`, true));
    } else if (Object.hasOwn(known, key)) {
      problems.push(
        locate(
          [...at, EXTRA_KEY, key],
          `${quoteCapped(key)} is a known ${provider} parameter: set it in parameters, where its value is checked, not in extra`,
          true,
        ),
      );
    }
  }
  throwConfigErrors(problems);
}
