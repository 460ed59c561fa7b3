import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { isSecretVariable } from '../../config/redact.js';

/**
 * Makes the secrets of this process's environment unreadable through `/proc/<pid>/environ`
 * (docs/security.md). That file shows the environment the process was started with, read from
 * its memory, and any process of the same user can read it: deleting a variable from
 * `process.env` does not change it. So each secret variable is first set again (the C library
 * moves it to a fresh copy, which `process.env` keeps using), then its value in the original
 * block is overwritten with `*` through `/proc/self/mem`. Linux only; elsewhere, or when the
 * kernel refuses, it does nothing and says so. Returns the names hidden.
 */
export function hideInitialEnvironSecrets(env: NodeJS.ProcessEnv = process.env): { hidden: string[]; problem?: string } {
  const names = Object.keys(env).filter((name) => isSecretVariable(name) && env[name]);
  if (!names.length || process.platform !== 'linux') return { hidden: [] };
  let fd: number | undefined;
  try {
    const [start, end] = environBounds();
    const block = Buffer.alloc(end - start);
    fd = openSync('/proc/self/mem', 'r+');
    readSync(fd, block, 0, block.length, start);
    const hidden: string[] = [];
    let offset = 0;
    for (const entry of block.toString('latin1').split('\0')) {
      const equals = entry.indexOf('=');
      const name = entry.slice(0, equals);
      if (equals > 0 && names.includes(name)) {
        const value = env[name] as string;
        // The live value moves to a fresh copy before the original bytes are overwritten.
        env[name] = value;
        const valueBytes = entry.length - equals - 1;
        writeSync(fd, Buffer.alloc(valueBytes, '*'), 0, valueBytes, start + offset + equals + 1);
        hidden.push(name);
      }
      offset += entry.length + 1;
    }
    return { hidden };
  } catch (error) {
    return { hidden: [], problem: (error as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** env_start and env_end, fields 50 and 51 of /proc/self/stat (Linux 3.5 and later). */
function environBounds(): [number, number] {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  // Fields after the parenthesised command (which may hold spaces) start at field 3.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .trim()
    .split(' ');
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) throw new Error('no environment bounds in /proc/self/stat');
  return [start, end];
}
