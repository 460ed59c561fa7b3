/** An http(s) URL with a host: the pattern of the format's endpoint keys (an llm's `base_url`). */
export const HTTP_URL_PATTERN = '^https?://[^\\s/?#@]+([/?#]|$)';

/** A flow state key, `target:key.sub`: a channel, a colon, then keys joined by single dots (none empty). */
export const IO_KEY_PATTERN = '^[a-z_]+:[^.]+(\\.[^.]+)*$';

/** A flow component's name: state keys address it as `context:<name>.key`, so it holds no `:` or `.`. */
export const COMPONENT_NAME_PATTERN = '^(?=.*\\S)[^:.]+$';

/** A tool's name, as a model may call it (docs/formats.md, Tools). */
export const TOOL_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,64}$';

/** An MCP server's name (docs/mcp.md): its tools are offered as `mcp__<server>__<tool>`. */
export const MCP_SERVER_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,32}$';

/** An agent build's `id`: lower case, as file and report names use it. */
export const BUILD_ID_PATTERN = '^[a-z0-9][a-z0-9_-]*$';

/** An http engine's `ready_path`: a path on its URL's host. */
export const READY_PATH_PATTERN = '^/';

/** Text with something in it besides white space (a name, a reason): spaces alone say nothing. */
export const NOT_BLANK_PATTERN = '\\S';

/** What a format pattern means, in words, for its error message. */
export const PATTERN_WORDS: Readonly<Record<string, string>> = {
  [IO_KEY_PATTERN]: 'a state key such as "context:name.key": a channel, a colon, then keys joined by single dots',
  [NOT_BLANK_PATTERN]: 'text that is not blank (white space alone says nothing)',
  [COMPONENT_NAME_PATTERN]: 'a component name without ":" or "." and not blank (state keys address it as context:<name>.key), such as lookup_step',
  [TOOL_NAME_PATTERN]: 'a tool name of 1 to 64 letters, digits, "_" or "-" (what a model may call), such as lookup_order',
  [MCP_SERVER_NAME_PATTERN]: 'an MCP server name of 1 to 32 letters, digits, "_" or "-", such as notes',
  [BUILD_ID_PATTERN]: 'a build id of lower-case letters, digits, "_" or "-", starting with a letter or digit, such as support-bot',
  [READY_PATH_PATTERN]: 'a path starting with "/", such as /health',
  [HTTP_URL_PATTERN]:
    "an http:// or https:// URL such as https://api.openai.com/v1, without user:password@ (fetch refuses it; the key goes in the provider's API key variable)",
};

/** What an empty string is told, for the patterns of names: that it is empty, before the name's rules. */
export const PATTERN_EMPTY_WORDS: Readonly<Record<string, string>> = {
  [COMPONENT_NAME_PATTERN]: 'a component name such as lookup_step',
  [TOOL_NAME_PATTERN]: 'a tool name such as lookup_order',
  [MCP_SERVER_NAME_PATTERN]: 'an MCP server name such as notes',
  [BUILD_ID_PATTERN]: 'a build id such as support-bot',
  [READY_PATH_PATTERN]: 'a path starting with "/", such as /health',
};
