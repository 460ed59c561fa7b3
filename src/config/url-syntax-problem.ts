import { quoteCapped } from './cap-text.js';
import { urlPortProblem } from './url-port.js';

/** The scheme and `//`, then the authority: userinfo, host and port, up to the path, query or fragment. */
const AUTHORITY = /^\s*[A-Za-z][A-Za-z\d+.-]*:\/\/([^/?#\\]*)/;

/** Characters no host name holds (the URL standard's forbidden domain code points, less the separators). */
// eslint-disable-next-line no-control-regex -- control characters are among them
const FORBIDDEN_IN_HOST = /[\x00-\x20\x7f%<>^|[\]:]/;

/**
 * Why the URL parser refuses `text`, which it says only as "Invalid URL": a port out of range,
 * no scheme, no host, a host holding a space or another character no host name may hold, a port
 * that is no number. Never quotes the userinfo (it may hold a credential).
 */
export function urlSyntaxProblem(text: string): string {
  const port = urlPortProblem(text);
  if (port) return port;
  if (!/^\s*[A-Za-z][A-Za-z\d+.-]*:/.test(text)) return 'it has no scheme (such as http://)';
  const authority = AUTHORITY.exec(text)?.[1];
  if (authority === undefined) return 'it has no "//" and host after its scheme';
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const bracketed = /^\[[^\]]*\]/.exec(hostAndPort)?.[0];
  const host = bracketed ?? hostAndPort.replace(/:[^:]*$/, '');
  const writtenPort = hostAndPort.slice(host.length + 1);
  if (host === '') return 'it has no host after "//"';
  if (host.startsWith('[') && bracketed === undefined) return `its IPv6 address ${quoteCapped(hostAndPort)} has no closing "]"`;
  if (bracketed === undefined) {
    const bad = FORBIDDEN_IN_HOST.exec(host)?.[0];
    if (bad !== undefined) return `its host ${quoteCapped(host)} holds ${characterWords(bad)}, which no host name may hold`;
  }
  if (writtenPort !== '' && !/^\d+$/.test(writtenPort)) return `its port ${quoteCapped(writtenPort)} is not a number`;
  return `its host ${quoteCapped(host)} is not a valid host name or IP address`;
}

function characterWords(character: string): string {
  if (character === ' ') return 'a space';
  const code = character.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return 'a control character';
  return `"${character}"`;
}
