import type { Locator } from '../../config/assert-format.js';
import { closestWord } from '../../config/did-you-mean.js';
import { isPlainObject } from '../args/json-value.js';
import { matchValue } from '../args/matchers.js';
import { validateExpectedValue } from '../args/validate-expected.js';
import { checkParamsInParts, exactlyOne, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { containsValue } from '../contains-value.js';
import { show } from '../describe.js';
import { parseValuePath, valueAt } from '../value-path.js';

/**
 * `state: {key, equals | contains | exists}`; key as an IOKey: `context:a.b`, `status`, `ui_chat_log`,
 * `conversation_history:<component>.0.content`.
 */
export interface StateParams {
  key: string;
  equals?: unknown;
  contains?: unknown;
  exists?: boolean;
}

const KIND = 'state';
const CHANNELS = ['status', 'context', 'ui_chat_log', 'conversation_history'];
const schema = objectParams({ key: { type: 'string', minLength: 1 }, equals: PARAM.any, contains: PARAM.any, exists: { type: 'boolean' } }, ['key']);

/** A value of the flow state after the run (`agentcheck.flow.state`) equals, contains or exists. */
export const state: Check<StateParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkParamsInParts<StateParams>(schema, params, locate, [
      [
        ['key'],
        (p) => {
          const problem = keyProblem(p.key);
          if (problem) throw locate(['key'], problem);
        },
      ],
      [['equals', 'contains', 'exists'], (p) => exactlyOne(p as unknown as Record<string, unknown>, ['equals', 'contains', 'exists'], locate)],
      [['equals'], (p) => p.equals !== undefined && validateExpectedValue(p.equals, ['equals'], locate)],
      [['contains'], (p) => p.contains !== undefined && validateExpectedValue(p.contains, ['contains'], locate)],
    ]);
  },
  references: (params) => [{ kind: 'flow_state', at: ['key'], key: params.key }],
  partialReferences: (params) => {
    const key = isPlainObject(params) ? params.key : undefined;
    return typeof key === 'string' && key !== '' && !keyProblem(key) ? [{ kind: 'flow_state', at: ['key'], key }] : [];
  },
  run(params, evidence, id) {
    const ids = evidence.root ? [evidence.root.span_id] : [];
    if (!evidence.flow_state)
      return result(KIND, id, 'error', 'no flow state (agentcheck.flow.state) on the root span; state checks need a build with a flow', ids);
    const path = parseKey(params.key) ?? [];
    const { found, value } = valueAt(evidence.flow_state, path);
    const present = found && value !== undefined && value !== null;
    if (params.exists !== undefined) {
      return present === params.exists
        ? result(KIND, id, 'pass', `state ${params.key} ${present ? `exists (${show(value)})` : 'does not exist'}`, ids)
        : result(KIND, id, 'fail', `expected state ${params.key} ${params.exists ? 'to exist; it does not' : `not to exist; it is ${show(value)}`}`, ids);
    }
    if (!found)
      return result(
        KIND,
        id,
        'fail',
        `expected state ${params.key} to ${params.contains !== undefined ? 'contain' : 'equal'} ${show(params.contains ?? params.equals)}; it does not exist`,
        ids,
      );
    if (params.contains !== undefined) {
      return containsValue(value, params.contains)
        ? result(KIND, id, 'pass', `state ${params.key} contains ${show(params.contains)}`, ids)
        : result(KIND, id, 'fail', `expected state ${params.key} to contain ${show(params.contains)}; ${containsMiss(value)}`, ids);
    }
    const mismatch = matchValue(params.equals, value, '');
    if (!mismatch) return result(KIND, id, 'pass', `state ${params.key} equals ${show(value)}`, ids);
    const at = mismatch.argument ? ` (at ${mismatch.argument}: ${mismatch.message})` : '';
    return result(KIND, id, 'fail', `expected state ${params.key} to equal ${show(params.equals)}; it is ${show(value)}${at}`, ids);
  },
};

/** Why `key` is no state key a run could hold, or null. */
function keyProblem(key: string): string | null {
  if (!parseKey(key)) {
    return `expected a state key such as context:read_config.tool_result or status (channels: ${CHANNELS.join(', ')}), got "${key}"${channelHint(key)}`;
  }
  // status is a string: no key inside it ever exists, so `exists: false` would pass whatever the run did.
  if (key.startsWith('status:')) {
    return `state key "${key}" reads inside status, which is a string ("completed", "input_required", ...), so it never exists; use key: status with equals or contains`;
  }
  return null;
}

/** `context:a.b` -> ['context', 'a', 'b']; `status` -> ['status']; null when malformed. */
function parseKey(key: string): Array<string | number> | null {
  const colon = key.indexOf(':');
  const channel = colon < 0 ? key : key.slice(0, colon);
  if (!CHANNELS.includes(channel)) return null;
  if (colon < 0) return [channel];
  const rest = parseValuePath(key.slice(colon + 1));
  return rest && rest.length ? [channel, ...rest] : null;
}

/** `; did you mean "status"?` for a misspelt channel (`stauts`, `contxt:goal`), else ''. */
function channelHint(key: string): string {
  const colon = key.indexOf(':');
  const channel = colon < 0 ? key : key.slice(0, colon);
  if (CHANNELS.includes(channel)) return '';
  const near = closestWord(channel, CHANNELS);
  return near === undefined ? '' : `; did you mean "${near}${key.slice(channel.length)}"?`;
}

/** What a failed `contains` saw: an object is searched by key, so its keys are what to show. */
function containsMiss(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    return `it is an object, searched by key, and its keys are ${keys.length ? keys.map((key) => show(key)).join(', ') : 'none'}`;
  }
  return `it is ${show(value)}`;
}
