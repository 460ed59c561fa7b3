import { isAbsolute, resolve } from 'node:path';

/** argv with its `./` and `../` paths made absolute against the build file's folder (the process runs in the workspace). */
export function resolveArgv(argv: readonly string[], buildDir: string): string[] {
  return argv.map((arg) => (isBuildRelative(arg) ? resolve(buildDir, arg) : arg));
}

/** Whether an argv item is a `./` or `../` path, which resolveArgv reads against the build file's folder. */
export function isBuildRelative(arg: string): boolean {
  return !isAbsolute(arg) && (arg.startsWith('./') || arg.startsWith('../'));
}
