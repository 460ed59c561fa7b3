import { assertFormat, type Locator } from '../../config/assert-format.js';
import type { PathSegments } from '../../config/source.js';
import { didYouMean } from '../../config/did-you-mean.js';
import type { LlmSpec } from '../revision/types.js';
import { EXCLUSIVE_PARAMETERS, EXTRA_KEY, PARAMETER_ALIASES, PARAMETER_SCHEMAS, PARAMETER_SPECS, PROVIDER_OWNED_KEYS } from './parameter-specs.js';

/**
 * Validates `llm.parameters` for the provider that will receive them (docs/formats.md): every
 * key must be one the provider's API defines, with a value of the right type and range;
 * anything else goes under `parameters.extra`, which is sent as is. `at` is the path of
 * `parameters` for the locator.
 */
export function validateLlmParameters(llm: Pick<LlmSpec, 'provider' | 'parameters'> | undefined, locate: Locator, at: PathSegments = ['agent', 'llm', 'parameters']): void {
  const parameters = llm?.parameters;
  if (!llm || !parameters) return;
  const { provider } = llm;
  const known = PARAMETER_SPECS[provider];
  for (const key of Object.keys(parameters)) {
    if (key === EXTRA_KEY || Object.hasOwn(known, key)) continue;
    const alias = PARAMETER_ALIASES[provider]?.[key];
    const hint = alias ? `; ${provider} calls it "${alias}"` : didYouMean(key, Object.keys(known));
    throw locate([...at, key],
      `unknown ${provider} parameter "${key}"${hint}; expected one of: ${Object.keys(known).join(', ')} (provider-specific extras go under parameters.${EXTRA_KEY})`, true);
  }
  assertFormat(PARAMETER_SCHEMAS[provider], parameters, (path, expected, atKey) => locate([...at, ...path], expected, atKey));
  for (const [a, b] of EXCLUSIVE_PARAMETERS[provider] ?? []) {
    if (parameters[a] !== undefined && parameters[b] !== undefined) {
      throw locate([...at, b], `"${a}" and "${b}" cannot both be set: the ${provider} API refuses a request with both; keep one`, true);
    }
  }
  const extra = parameters[EXTRA_KEY] as Record<string, unknown> | undefined;
  for (const key of Object.keys(extra ?? {})) {
    if (PROVIDER_OWNED_KEYS[provider].includes(key)) {
      throw locate([...at, EXTRA_KEY, key], `"${key}" is set by agentcheck itself and cannot be passed through extra`, true);
    }
    if (Object.hasOwn(known, key)) {
      throw locate([...at, EXTRA_KEY, key], `"${key}" is a known ${provider} parameter: set it in parameters, where its value is checked, not in extra`, true);
    }
  }
}
