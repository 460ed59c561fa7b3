import { quotedUrl } from '../../config/display-url.js';
import { RunError } from '../../config/errors.js';
import { stringifyValue, TEMPLATE_NAME_SOURCE } from './interpolate.js';
import { resolveTemplatePath, type TemplateLookup } from './template-path.js';

/** The filters a URL template may name: `path` keeps `/` (docs/formats.md, Tools). */
export const URL_TEMPLATE_FILTERS = ['path'] as const;

const WHOLE = new RegExp(String.raw`^\{\{\s*(${TEMPLATE_NAME_SOURCE})\s*\}\}$`);
const EMBEDDED = new RegExp(String.raw`\{\{\s*(${TEMPLATE_NAME_SOURCE})\s*(?:\|\s*(path)\s*)?\}\}`, 'g');
/**
 * Scheme, slashes and authority, then the path up to the query or fragment, as the URL parser
 * reads an http(s) URL: `\\` counts as `/`, and any number of slashes may follow the scheme.
 */
const PATH_OF_URL = /^[A-Za-z][A-Za-z\d+.-]*:[/\\]*[^/\\?#]*([^?#]*)/;
/** What the URL parser strips before reading a URL: leading and trailing controls and spaces, and every tab and newline. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const PARSER_STRIPPED_EDGES = /^[\x00-\x20]+|[\x00-\x20]+$/g;
const PARSER_STRIPPED_INSIDE = /[\t\n\r]/g;

/**
 * Fills the `{{ name }}` templates of a URL. An embedded value is percent-encoded whole
 * (encodeURIComponent, so `a b&c=d` cannot add a query parameter and `/` becomes %2F);
 * `{{ name | path }}` keeps `/` as a path separator and encodes each segment between them.
 * A URL that is exactly one template is the value itself. The filled URL, whatever its templates
 * formed (the whole URL, its scheme or host), is then checked (docs/formats.md, "Values in an
 * http URL"): RunError INVALID_URL when it is not an absolute http(s) URL (`file:`,
 * `javascript:`, unparsable), PATH_TRAVERSAL when its path has a `.` or `..` segment (URL
 * parsers remove those, so the request would silently go to another path). Also TEMPLATE_UNDEFINED.
 */
export function interpolateUrl(url: string, lookup: TemplateLookup, where?: string): string {
  const whole = WHOLE.exec(url);
  const filled = whole
    ? stringifyValue(resolveTemplatePath(whole[1], lookup, where))
    : url.replace(EMBEDDED, (_match, path: string, filter: string | undefined) => {
        const text = stringifyValue(resolveTemplatePath(path, lookup, where));
        return filter === 'path' ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text);
      });
  checkFilledUrl(filled, where);
  return filled;
}

/** Refuses a filled URL that is not an http(s) URL or whose path a URL parser would change. */
function checkFilledUrl(url: string, where: string | undefined): void {
  const at = where ? ` at ${where}` : '';
  // The message reaches the model and the outputs: a password or token in the URL is left out.
  // Made only for an error: every http tool call passes here.
  const shown = () => quotedUrl(url);
  let protocol: string;
  try {
    ({ protocol } = new URL(url));
  } catch {
    throw new RunError(
      'INVALID_URL',
      `URL ${shown()}${at} is not a valid URL after templating; expected an absolute http:// or https:// URL such as "https://api.example.com/items"`,
    );
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new RunError(
      'INVALID_URL',
      `URL ${shown()}${at} has the scheme "${protocol.slice(0, -1)}" after templating; only http:// and https:// URLs are fetched, so nothing was sent`,
    );
  }
  const segment = dotSegment(url);
  if (segment !== undefined) {
    throw new RunError(
      'PATH_TRAVERSAL',
      `URL ${shown()}${at} has a "${segment}" path segment after templating; it is refused because it would change the path the request goes to (pass a value without "." or ".." segments)`,
    );
  }
}

/** The first `.` or `..` path segment of a URL (also written `%2e`), which a URL parser would resolve away. */
export function dotSegment(url: string): string | undefined {
  const read = url.replace(PARSER_STRIPPED_EDGES, '').replace(PARSER_STRIPPED_INSIDE, '');
  const path = PATH_OF_URL.exec(read)?.[1] ?? '';
  return path.split(/[/\\]/).find((segment) => {
    const decoded = segment.toLowerCase().replaceAll('%2e', '.');
    return decoded === '.' || decoded === '..';
  });
}
