/** An HTTP header name: a token (RFC 9110), as fetch's Headers requires. */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why fetch would refuse `name` as a header name (it is no HTTP token), or undefined. */
export function headerNameProblem(name: string): string | undefined {
  if (HTTP_TOKEN.test(name)) return undefined;
  if (name === '') return 'a header name cannot be empty: expected an HTTP token such as X-Api-Key';
  const bad = [...name].find((char) => !HTTP_TOKEN.test(char)) ?? '';
  const templated = name.includes('{{') ? ' (templates are filled in values only)' : '';
  return (
    `header name ${JSON.stringify(name)} cannot be sent: it holds ${JSON.stringify(bad)}${templated}; ` +
    "expected an HTTP token: letters, digits and !#$%&'*+-.^_`|~, no spaces or colons (e.g. X-Api-Key)"
  );
}

/**
 * Why fetch would refuse `text` inside a header value, or undefined: a line break (CR, LF) or
 * NUL would split the request's headers, and a character above U+00FF has no byte on the wire.
 * The value itself is not quoted: it may be a credential.
 */
export function headerValueProblem(text: string): string | undefined {
  const found = /[\r\n\0]|[^\0-\xff]/u.exec(text);
  if (!found) return undefined;
  const at = `character ${[...text.slice(0, found.index)].length + 1} of the value`;
  const char = found[0];
  if (char === '\0') return `a header value cannot hold a NUL character (${at}): expected one line of text`;
  if (char === '\r' || char === '\n') return `a header value cannot hold a line break (${char === '\r' ? 'CR' : 'LF'}, ${at}): expected one line of text`;
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  return `a header value cannot hold ${code} (${at}): headers carry Latin-1 characters only (up to U+00FF); percent-encode it`;
}
