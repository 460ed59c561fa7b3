import { displayUrl } from '../../config/display-url.js';

/**
 * ` (a redirect to <where>, not followed)` for a 3xx answer of a fetch made with `redirect:
 * 'manual'`, else ''. An external agent's redirects are not followed (docs/external-agents.md):
 * fetch would turn the POST into a GET without its body. The Location is resolved against `url`
 * and shown without its query or credentials (it may carry a session token).
 */
export function redirectNote(response: Response, url: string): string {
  if (response.status < 300 || response.status > 399) return '';
  const location = response.headers.get('location');
  if (location === null) return ' (a redirect, not followed)';
  const target = URL.canParse(location, url) ? new URL(location, url).href : location;
  return ` (a redirect to ${displayUrl(target)}, not followed)`;
}
