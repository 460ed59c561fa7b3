import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** Flags of `agentcheck run` that take several names after one flag: `--variant base lean`. */
const NAME_FLAGS = ['--variant', '--tag'];

/**
 * `run`'s arguments with the names written after a `--variant` or `--tag` value spread into
 * flags of their own, so `--variant base lean scenarios/` means variants base and lean on the
 * paths scenarios/ (docs/cli.md). A word after the names is a name while it is not a path on
 * disk, has no folder separator and no file suffix; the first path or flag ends the list.
 */
export function spreadNameLists(argv: readonly string[], cwd: string): string[] {
  // argv is process.argv: node, the script, then the command.
  if (argv[2] !== 'run') return [...argv];
  const out = argv.slice(0, 3);
  let flag: string | undefined;
  for (let index = 3; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--') {
      out.push(...argv.slice(index));
      break;
    }
    const [name, inline] = arg.split(/=(.*)/s, 2);
    if (NAME_FLAGS.includes(name)) {
      out.push(arg);
      // The flag's own value follows it unless written `--variant=lean`.
      if (inline === undefined && index + 1 < argv.length) out.push(argv[++index]);
      flag = name;
      continue;
    }
    if (flag && isBareName(arg, cwd)) {
      out.push(flag, arg);
      continue;
    }
    flag = undefined;
    out.push(arg);
  }
  return out;
}

function isBareName(arg: string, cwd: string): boolean {
  return !arg.startsWith('-') && !/[\\/]/.test(arg) && !/\.(ya?ml|json)$/i.test(arg) && !existsSync(resolve(cwd, arg));
}
