import type { Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import { headerNameProblem, headerValueProblem } from '../../config/http-header.js';
import type { PathSegments } from '../../config/source.js';
import { maskTemplates } from './template-checks.js';

/**
 * The written headers of an http tool, an MCP url server or an external http agent that fetch
 * would refuse on every run, each at its key (a name that is no HTTP token) or its value (its
 * written text, templates aside: what they fill in is checked when the request is sent).
 */
export function headerProblems(headers: Readonly<Record<string, string>> | undefined, at: PathSegments, locate: Locator): ConfigError[] {
  return Object.entries(headers ?? {}).flatMap(([name, value]) => {
    const nameProblem = headerNameProblem(name);
    if (nameProblem) return [locate([...at, name], nameProblem, true)];
    const valueProblem = headerValueProblem(maskTemplates(value));
    return valueProblem ? [locate([...at, name], valueProblem)] : [];
  });
}
