/** An http(s) URL with a host: the pattern of the format's endpoint keys (an llm's `base_url`). */
export const HTTP_URL_PATTERN = '^https?://[^\\s/?#@]+([/?#]|$)';

/** A flow state key, `target:key.sub`: a channel, a colon, then keys joined by single dots (none empty). */
export const IO_KEY_PATTERN = '^[a-z_]+:[^.]+(\\.[^.]+)*$';

/** A flow component's name: state keys address it as `context:<name>.key`, so it holds no `:` or `.`. */
export const COMPONENT_NAME_PATTERN = '^[^:.]+$';

/** Text with something in it besides white space (a name, a reason): spaces alone say nothing. */
export const NOT_BLANK_PATTERN = '\\S';

/** What a format pattern means, in words, for its error message. */
export const PATTERN_WORDS: Readonly<Record<string, string>> = {
  [IO_KEY_PATTERN]: 'a state key such as "context:name.key": a channel, a colon, then keys joined by single dots',
  [NOT_BLANK_PATTERN]: 'text that is not blank (white space alone says nothing)',
  [COMPONENT_NAME_PATTERN]: 'a component name without ":" or "." (state keys address it as context:<name>.key), such as lookup_step',
  [HTTP_URL_PATTERN]:
    "an http:// or https:// URL such as https://api.openai.com/v1, without user:password@ (fetch refuses it; the key goes in the provider's API key variable)",
};
