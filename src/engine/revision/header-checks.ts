import type { Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import { headerNameProblem, headerValueProblem } from '../../config/http-header.js';
import type { PathSegments } from '../../config/source.js';
import { maskTemplates } from './template-checks.js';

/**
 * The written headers of an http tool, an MCP url server, an external http agent or a scenario's
 * mock answer that fetch would refuse on every run, each at its key (a name that is no HTTP token)
 * or its value. A value's templates are left out (what they fill in is checked when the request is
 * sent); with `templated: false` (mock answers: nothing is filled in) the whole text is checked.
 */
export function headerProblems(
  headers: Readonly<Record<string, string>> | undefined,
  at: PathSegments,
  locate: Locator,
  { templated = true }: { templated?: boolean } = {},
): ConfigError[] {
  return Object.entries(headers ?? {}).flatMap(([name, value]) => {
    const nameProblem = headerNameProblem(name);
    if (nameProblem) return [locate([...at, name], nameProblem, true)];
    const valueProblem = headerValueProblem(templated ? maskTemplates(value) : value);
    return valueProblem ? [locate([...at, name], valueProblem)] : [];
  });
}
