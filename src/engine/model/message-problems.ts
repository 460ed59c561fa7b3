import { ConfigError } from '../../config/errors.js';
import { describeValue } from '../../config/describe-value.js';
import { nearKey } from '../../config/did-you-mean.js';
import { unknownOptionKeys } from '../../config/option-keys.js';

/** The keys each message may have, by role (docs/engine-loop.md, Messages). */
const MESSAGE_KEYS: Record<string, readonly string[]> = {
  user: ['role', 'content'],
  assistant: ['role', 'content', 'tool_calls', 'provider_content'],
  tool: ['role', 'tool_call_id', 'tool_name', 'content', 'is_error', 'denied'],
};
const ROLES = Object.keys(MESSAGE_KEYS);

/** The keys of one assistant tool call (docs/engine-loop.md, Messages). */
const TOOL_CALL_KEYS = ['tool_call_id', 'tool_name', 'input'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A transcript's problems, each a ConfigError at `file` and its path under `path`
 * (`input.messages[2].role`): every message's (messageProblems), and a tool result that answers
 * no call made before it (the call it meant would stay open and run). invoke's input and a
 * checkpoint's messages are held to these same rules.
 */
export function transcriptProblems(messages: readonly unknown[], file: string, path: string): ConfigError[] {
  const problems: ConfigError[] = [];
  const callIds = new Set<string>();
  messages.forEach((message, index) => {
    const at = `${path}[${index}]`;
    problems.push(...messageProblems(message, file, at));
    if (!isObject(message)) return;
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) if (isObject(call) && typeof call.tool_call_id === 'string') callIds.add(call.tool_call_id);
    }
    const id = message.tool_call_id;
    if (message.role === 'tool' && typeof id === 'string' && id !== '' && !callIds.has(id)) {
      const known = callIds.size ? `one of: ${[...callIds].map((known) => `"${known}"`).join(', ')}` : 'an earlier assistant tool call, and there is none';
      problems.push(
        new ConfigError({ file, path: `${at}.tool_call_id` }, `expected the id of an earlier assistant tool call it answers (${known}), got string "${id}"`),
      );
    }
  });
  return problems;
}

/**
 * One message's problems, each named where it is: an unknown key (a misspelt `content` or
 * `role`, with did-you-mean), a role that is none of the three, content that is not text, a
 * tool result without its call's id, and an assistant's tool call with a wrong key.
 */
function messageProblems(message: unknown, file: string, path: string): ConfigError[] {
  const at = (sub: string, expected: string) => new ConfigError({ file, path: `${path}${sub}` }, expected);
  if (!isObject(message)) return [at('', `expected a message {role: user | assistant | tool, content: string}, got ${describeValue(message)}`)];
  const role = ROLES.includes(message.role as string) ? (message.role as string) : undefined;
  // Keys are held to the role's list; with no known role, to every role's keys (so `rol` is named).
  const known = role ? MESSAGE_KEYS[role] : [...new Set(Object.values(MESSAGE_KEYS).flat())];
  const problems = unknownOptionKeys(message, known, file, `${path}.`);
  // A missing key whose misspelling is there (`rol`, `contnt`) is named once, as that unknown key.
  const misspelt = new Set(Object.keys(message).map((key) => (known.includes(key) ? undefined : nearKey(key, known))));
  const missing = (key: string) => message[key] === undefined && misspelt.has(key);
  if (!role && !missing('role')) problems.push(at('.role', `expected one of "user" | "assistant" | "tool", got ${describeValue(message.role)}`));
  if (typeof message.content !== 'string' && !missing('content')) {
    problems.push(at('.content', `expected a string, got ${describeValue(message.content)}`));
  }
  // A result without its call's id cannot be paired with the call (providers refuse it).
  if (role === 'tool' && (typeof message.tool_call_id !== 'string' || message.tool_call_id === '')) {
    problems.push(at('.tool_call_id', `expected the id of the assistant tool call it answers, got ${describeValue(message.tool_call_id)}`));
  }
  if (role === 'assistant') problems.push(...toolCallProblems(message.tool_calls, file, `${path}.tool_calls`));
  return problems;
}

/** An assistant message's `tool_calls`: a list of `{tool_call_id, tool_name, input}`, each key named where wrong. */
function toolCallProblems(calls: unknown, file: string, path: string): ConfigError[] {
  const at = (sub: string, expected: string) => new ConfigError({ file, path: `${path}${sub}` }, expected);
  if (calls === undefined) return [];
  if (!Array.isArray(calls)) return [at('', `expected a list of tool calls {tool_call_id, tool_name, input}, got ${describeValue(calls)}`)];
  return calls.flatMap((call, index) => {
    const here = `[${index}]`;
    if (!isObject(call)) return [at(here, `expected a tool call {tool_call_id, tool_name, input}, got ${describeValue(call)}`)];
    const problems = unknownOptionKeys(call, TOOL_CALL_KEYS, file, `${path}${here}.`);
    for (const key of ['tool_call_id', 'tool_name']) {
      if (typeof call[key] !== 'string' || call[key] === '')
        problems.push(at(`${here}.${key}`, `expected a non-empty string, got ${describeValue(call[key])}`));
    }
    return problems;
  });
}
