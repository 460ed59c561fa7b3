import type { Locator } from '../../config/assert-format.js';
import { quoteCapped } from '../../config/cap-text.js';
import { closestWord } from '../../config/did-you-mean.js';
import { matchValue } from '../args/matchers.js';
import { validateExpectedValue } from '../args/validate-expected.js';
import { checkSchema, exactlyOne, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { containsValue } from '../contains-value.js';
import { show } from '../describe.js';
import { parseValuePath, valueAt } from '../value-path.js';

/** `resolved: {path, contains | equals}`. */
export interface ResolvedParams {
  path: string;
  contains?: unknown;
  equals?: unknown;
}

const KIND = 'resolved';
/** The keys of the resolved config (docs/spans.md, agentcheck.resolved_config). */
const RESOLVED_KEYS = [
  'harness',
  'provider',
  'model',
  'parameters',
  'max_turns',
  'permissions_mode',
  'tools',
  'commands',
  'skills',
  'skills_delivery',
  'skills_not_delivered',
  'revision_id',
  'revision_hash',
  'delta_hash',
  'external',
];
const schema = objectParams({ path: PARAM.text, contains: PARAM.any, equals: PARAM.any }, ['path']);

/** A value of the resolved config (read back from the root span) contains or equals the expected one. */
export const resolved: Check<ResolvedParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkSchema(schema, params, locate);
    const p = params as ResolvedParams;
    const path = parseValuePath(p.path);
    if (path === null) throw locate(['path'], `expected a dotted path such as tools[0].name, got ${quoteCapped(p.path)}`);
    // The resolved config has a fixed set of keys: a misspelt one could never exist.
    const [first] = path;
    if (typeof first === 'string' && first !== '' && !RESOLVED_KEYS.includes(first)) {
      const near = closestWord(first, RESOLVED_KEYS);
      throw locate(
        ['path'],
        `unknown resolved config key ${quoteCapped(first)}${near ? ` (did you mean ${quoteCapped(near)}?)` : ''}; expected one of: ${RESOLVED_KEYS.join(', ')}`,
      );
    }
    exactlyOne(p as unknown as Record<string, unknown>, ['contains', 'equals'], locate);
    if (p.equals !== undefined) validateExpectedValue(p.equals, ['equals'], locate);
    if (p.contains !== undefined) validateExpectedValue(p.contains, ['contains'], locate);
  },
  run(params, evidence, id) {
    const ids = evidence.root ? [evidence.root.span_id] : [];
    if (!evidence.resolved) return result(KIND, id, 'error', 'no resolved config (agentcheck.resolved_config) on the root span', ids);
    const { found, value } = valueAt(evidence.resolved, parseValuePath(params.path) ?? []);
    if (!found) return result(KIND, id, 'fail', `expected resolved config ${params.path} to exist; it does not`, ids);
    if (params.contains !== undefined) {
      return containsValue(value, params.contains)
        ? result(KIND, id, 'pass', `resolved ${params.path} contains ${show(params.contains)}`, ids)
        : result(KIND, id, 'fail', `expected resolved ${params.path} to contain ${show(params.contains)}; it is ${show(value)}`, ids);
    }
    const mismatch = matchValue(params.equals, value, '');
    if (!mismatch) return result(KIND, id, 'pass', `resolved ${params.path} equals ${show(value)}`, ids);
    const at = mismatch.argument ? ` (at ${mismatch.argument}: ${mismatch.message})` : '';
    return result(KIND, id, 'fail', `expected resolved ${params.path} to equal ${show(params.equals)}; it is ${show(value)}${at}`, ids);
  },
};
