import { closestWord } from '../../config/did-you-mean.js';
import { RunError } from '../../config/errors.js';
import { templateNames } from '../revision/template-checks.js';
import { unsendableHeaderValue } from './filled-header.js';
import { interpolate, stringifyValue } from './interpolate.js';

/** Where a header that cannot be filled is reported: the error code(s) and the header's place in the build. */
export interface EnvHeaderSite {
  code: string;
  /** The code of a filled value fetch would refuse (a variable holding a line break); `code` when not given. */
  unsendableCode?: string;
  /** `agent.mcps[name=web].headers.Authorization`. */
  where: (header: string) => string;
}

/**
 * Header values with `{{ env.NAME }}` filled from `env` (MCP servers over HTTP, an external http
 * agent). An unset variable throws a RunError naming the header and the variable, with a "did you
 * mean" for a close name that is set; the environment's other names are never listed, since
 * the error lands in reports. A filled value fetch would refuse throws too, naming the header and
 * its variables, never the value.
 */
export function fillEnvHeaders(
  headers: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
  site: EnvHeaderSite,
): Record<string, string> {
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const filled: Record<string, string> = {};
  for (const [header, value] of Object.entries(headers)) {
    const unset = [
      ...new Set(
        templateNames(value)
          .filter((name) => name.startsWith('env.'))
          .map((name) => name.slice('env.'.length)),
      ),
    ].filter((name) => !Object.hasOwn(defined, name));
    if (unset.length) throw new RunError(site.code, `${site.where(header)} ${unsetMessage(unset, Object.keys(defined))}`);
    filled[header] = stringifyValue(interpolate(value, (scope) => (scope === 'env' ? { found: true, value: defined } : { found: false }), site.where(header)));
    const unsendable = unsendableHeaderValue(value, filled[header]);
    if (unsendable) throw new RunError(site.unsendableCode ?? site.code, `${site.where(header)} ${unsendable}`);
  }
  return filled;
}

/** `needs the environment variable X, which is not set; did you mean "Y"?` */
function unsetMessage(unset: readonly string[], names: readonly string[]): string {
  const near = unset.flatMap((name) => {
    const close = closestWord(name, names);
    return close === undefined ? [] : [unset.length === 1 ? `"${close}"` : `"${close}" (for ${name})`];
  });
  const several = unset.length > 1;
  return `needs the environment variable${several ? 's' : ''} ${unset.join(', ')}, which ${several ? 'are' : 'is'} not set${near.length ? `; did you mean ${near.join(', ')}?` : ''}`;
}
