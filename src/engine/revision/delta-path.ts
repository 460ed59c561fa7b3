import { quoteCapped } from '../../config/cap-text.js';
import type { ConfigError } from '../../config/errors.js';

/** One step of a delta path: a key, a list index, or a `[name=...]` selector. */
export type Segment = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'name'; name: string };

/** The steps of a delta path (`agent.tools[name=x].description`, `agent.tools.3`); `fail` says why one cannot be read. */
export function parseDeltaPath(path: string, fail: (message: string) => ConfigError): Segment[] {
  const bad = (why: string) =>
    fail(
      `cannot parse path ${quoteCapped(path)}: ${why}; expected dotted keys with [N] or [name=...] selectors, e.g. agent.tools[name=lookup] or agent.tools.3`,
    );
  const segments: Segment[] = [];
  let i = 0;
  let wantKey = true;
  while (i < path.length) {
    if (wantKey) {
      const end = path.slice(i).search(/[.[\]]/);
      const key = end < 0 ? path.slice(i) : path.slice(i, i + end);
      if (!key) throw bad(`empty key at character ${i + 1}`);
      segments.push({ kind: 'key', key });
      i += key.length;
      wantKey = false;
    } else if (path[i] === '.') {
      i++;
      wantKey = true;
    } else if (path[i] === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) throw bad('"[" without "]"');
      const inner = path.slice(i + 1, close);
      const name = /^name=(.+)$/.exec(inner);
      if (/^(0|[1-9]\d*)$/.test(inner)) segments.push({ kind: 'index', index: Number(inner) });
      else if (name) segments.push({ kind: 'name', name: name[1].replace(/^["']|["']$/g, '') });
      else throw bad(`"[${inner}]" is neither an index nor name=...`);
      i = close + 1;
    } else {
      throw bad(`unexpected ${quoteCapped(path[i])} at character ${i + 1}`);
    }
  }
  if (wantKey) throw bad(segments.length ? 'it ends with "."' : 'it is empty');
  return segments;
}
