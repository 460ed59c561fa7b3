import { compileHarnessRegex } from '../../config/safe-regex.js';

/**
 * A glob as a regular expression over `/`-separated relative paths: `**` spans folders,
 * `*` and `?` stay within one, `{a,b}` picks one.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === '*') {
      if (glob[i + 1] === '*') {
        // `**/` matches zero or more folders; a trailing `**` matches everything below.
        const slash = glob[i + 2] === '/';
        source += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else if (char === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) source += '\\{';
      else {
        source += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map(escape)
          .join('|')})`;
        i = end;
      }
    } else source += escape(char);
  }
  return compileHarnessRegex(`^${source}$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
