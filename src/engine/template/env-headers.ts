import { RunError } from '../../config/errors.js';
import { setOwn } from '../../config/own-key.js';
import { unsendableHeaderValue } from './filled-header.js';
import { definedEnv, fillEnvValue } from './env-values.js';

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
  const defined = definedEnv(env);
  const filled: Record<string, string> = {};
  for (const [header, value] of Object.entries(headers)) {
    const text = fillEnvValue(value, defined, site.where(header), site.code);
    setOwn(filled, header, text);
    const unsendable = unsendableHeaderValue(value, text);
    if (unsendable) throw new RunError(site.unsendableCode ?? site.code, `${site.where(header)} ${unsendable}`);
  }
  return filled;
}
