import { quoteCapped } from '../../config/cap-text.js';
import { ConfigError } from '../../config/errors.js';
import { PathKey, type ShownPath } from '../../config/format-path.js';

/** One step of a delta path: a key, a list index, or a `[name=...]` selector. */
export type Segment = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'name'; name: string };

/** Whether a path step's text is a list index (`3` in `agent.tools.3`; `03` is a key). */
export function isIndexText(text: string): boolean {
  return /^(0|[1-9]\d*)$/.test(text);
}

/** Whether a `set` key is a path (`agent.max_turns`, `agent.tools[0]`) rather than one top-level key of the build. */
export function isPathKey(key: string): boolean {
  return /[.[]/.test(key);
}

/**
 * Where a `set` entry sits in its delta: `set`, then its key as the path it is
 * (`set.agent.tools[name=x]`), where any other key holding a dot or a bracket is quoted (formatPath).
 */
export function setEntryPath(key: string): ShownPath {
  return ['set', new PathKey(key)];
}

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
      if (isIndexText(inner)) segments.push({ kind: 'index', index: Number(inner) });
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

/**
 * The plain keys a `set` key starts with: the dotted path up to its first `[...]` selector or
 * index (`agent.tools[name=x].description` -> agent, tools); a key without `.` or `[` is one.
 * Undefined for a path that cannot be read.
 */
export function leadingPlainKeys(key: string): string[] | undefined {
  if (!isPathKey(key)) return [key];
  let segments: Segment[];
  try {
    segments = parseDeltaPath(key, (message) => new ConfigError({ file: '<delta>' }, message, 'DELTA_INVALID'));
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
  const keys: string[] = [];
  for (const segment of segments) {
    if (segment.kind !== 'key' || isIndexText(segment.key)) break;
    keys.push(segment.key);
  }
  return keys;
}
