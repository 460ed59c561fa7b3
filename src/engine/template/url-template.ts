import { RunError } from '../../config/errors.js';
import { stringifyValue, TEMPLATE_NAME_SOURCE } from './interpolate.js';
import { resolveTemplatePath, type TemplateLookup } from './template-path.js';

/** The filters a URL template may name: `path` keeps `/` (docs/formats.md, Tools). */
export const URL_TEMPLATE_FILTERS = ['path'] as const;

const WHOLE = new RegExp(String.raw`^\{\{\s*(${TEMPLATE_NAME_SOURCE})\s*\}\}$`);
const EMBEDDED = new RegExp(String.raw`\{\{\s*(${TEMPLATE_NAME_SOURCE})\s*(?:\|\s*(path)\s*)?\}\}`, 'g');
/** Scheme and authority, then the path up to the query or fragment. */
const PATH_OF_URL = /^[A-Za-z][A-Za-z\d+.-]*:\/\/[^/?#]*([^?#]*)/;

/**
 * Fills the `{{ name }}` templates of a URL. An embedded value is percent-encoded whole
 * (encodeURIComponent, so `a b&c=d` cannot add a query parameter and `/` becomes %2F);
 * `{{ name | path }}` keeps `/` as a path separator and encodes each segment between them.
 * A URL that is exactly one template is the value itself. Throws RunError TEMPLATE_UNDEFINED,
 * and PATH_TRAVERSAL when the filled URL's path has a `.` or `..` segment: URL parsers remove
 * those, so the request would silently go to another path.
 */
export function interpolateUrl(url: string, lookup: TemplateLookup, where?: string): string {
  const whole = WHOLE.exec(url);
  if (whole) return stringifyValue(resolveTemplatePath(whole[1], lookup, where));
  if (!url.includes('{{')) return url;
  const filled = url.replace(EMBEDDED, (_match, path: string, filter: string | undefined) => {
    const text = stringifyValue(resolveTemplatePath(path, lookup, where));
    return filter === 'path' ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text);
  });
  const segment = dotSegment(filled);
  if (segment !== undefined) {
    const at = where ? ` at ${where}` : '';
    throw new RunError('PATH_TRAVERSAL', `URL "${filled}"${at} has a "${segment}" path segment after templating; it is refused because it would change the path the request goes to (pass a value without "." or ".." segments)`);
  }
  return filled;
}

/** The first `.` or `..` path segment of a URL (also written `%2e`), which a URL parser would resolve away. */
export function dotSegment(url: string): string | undefined {
  const path = PATH_OF_URL.exec(url)?.[1] ?? '';
  return path.split('/').find((segment) => {
    const decoded = segment.toLowerCase().replaceAll('%2e', '.');
    return decoded === '.' || decoded === '..';
  });
}
