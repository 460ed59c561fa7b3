/** The authority's port as written: after the scheme, any userinfo and the host (a bracketed IPv6 or a name). */
const WRITTEN_PORT = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]/?#]*\]|[^:/?#[\]]*):(\d+)(?=[/?#]|$)/;

/** The highest TCP port. */
const MAX_PORT = 65535;

/**
 * Why a URL's written port can never be connected to (0, or above 65535, which URL parsers refuse
 * as an invalid URL without saying why), or undefined.
 */
export function urlPortProblem(url: string): string | undefined {
  const port = WRITTEN_PORT.exec(url.trim())?.[1];
  if (port === undefined || (Number(port) >= 1 && Number(port) <= MAX_PORT)) return undefined;
  return `port ${port.length > 12 ? `${port.slice(0, 12)}...` : port} is out of range: a port is 1-${MAX_PORT}`;
}
