import { headerValueProblem } from '../../config/http-header.js';
import { templateNames } from '../revision/template-checks.js';

/**
 * Why fetch would refuse a header value once its templates are filled in (`written` as in the
 * build, `filled` as it would be sent), as the rest of a sentence naming the header:
 * `(filled from env.TOKEN) cannot be sent: a header value cannot hold a line break (...)`; or
 * undefined. The value is never quoted (it may be a credential), only its place and character.
 */
export function unsendableHeaderValue(written: string, filled: string): string | undefined {
  const problem = headerValueProblem(filled);
  if (!problem) return undefined;
  const sources = [...new Set(templateNames(written))];
  return `${sources.length ? `(filled from ${sources.join(', ')}) ` : ''}cannot be sent: ${problem}`;
}
