import { setOwn } from '../../config/own-key.js';

/**
 * Prompt security on tool results (docs/formats.md, Tools): tags that could steer the model, such as
 * `<goal>` or `</system>`, are encoded as `&lt;...&gt;` before the model or the state sees them.
 */

/** The default tags encoded in every tool result. */
export const DEFAULT_ENCODED_TAGS = ['goal', 'system'] as const;

/** A compiled encoder for one tag list. */
export interface PromptSecurity {
  /** Encodes tags in every string inside `value` (deeply); other values pass unchanged. */
  sanitize(value: unknown): unknown;
}

/** Builds the encoder for a tag list (case-insensitive; literal `<` and its `\u003c` form). */
export function createPromptSecurity(tags: readonly string[] = DEFAULT_ENCODED_TAGS): PromptSecurity {
  if (tags.length === 0) return { sanitize: (value) => value };
  const names = tags.map(escapeRegExp).join('|');
  // `\u003c` is the JSON escape of `<`; a result may carry it literally as six characters.
  // A tag is its name followed by no word character, so `<system role="x">`, `<system/>` and
  // `<system-reminder>` are tags too (attributes, at most 200 characters, are kept), while
  // `<systemd>` is not. An opening `<` whose `>` never comes is still encoded.
  const pattern = new RegExp(`(?:<|\\\\u003c)(/?)(${names})(?!\\w)(?:([^<>]{0,200}?)(>|\\\\u003e))?`, 'gi');
  const encodeString = (text: string) => {
    pattern.lastIndex = 0;
    if (!pattern.test(text)) return text;
    return text.replace(
      pattern,
      (_m, slash: string, name: string, rest: string | undefined, close: string | undefined) => `&lt;${slash}${name}${rest ?? ''}${close ? '&gt;' : ''}`,
    );
  };
  // `ancestors` holds the containers on the current path: a tool may hand back a cyclic
  // value, which becomes "[Circular]" instead of overflowing the stack.
  const sanitize = (value: unknown, ancestors: object[] = []): unknown => {
    if (typeof value === 'string') return encodeString(value);
    if (!value || typeof value !== 'object') return value;
    if (ancestors.includes(value)) return '[Circular]';
    const path = [...ancestors, value];
    if (Array.isArray(value)) return value.map((item) => sanitize(item, path));
    const out: Record<string, unknown> = {};
    // Keys too: an object result reaches the model as JSON text, keys included. setOwn: a
    // `__proto__` key of an API's answer is kept as a key, never made the copy's prototype.
    for (const [key, item] of Object.entries(value)) setOwn(out, encodeString(key), sanitize(item, path));
    return out;
  };
  return { sanitize: (value) => sanitize(value) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
