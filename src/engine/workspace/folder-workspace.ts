import { lstatSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunError, ToolError } from '../../config/errors.js';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { namesFolder } from '../../config/names-folder.js';
import { realPathAllowMissing, type RealPath, SymlinkLoop } from '../../config/real-path.js';
import { holdsTempFolder, workspaceFolderMissing } from './folder-problem.js';
import type { Workspace } from './workspace.js';
import { assertPathArgument } from '../../config/path-argument.js';
import { UNCOPYABLE_REASONS } from './uncopyable-files.js';

/** A Workspace backed by a real folder: a fresh temp folder, a temp copy of a fixture, or a folder used in place. */
export class FolderWorkspace implements Workspace {
  private rootPromise?: Promise<string>;
  /** The folder this workspace made, once made (what disposeSync removes). */
  private madeDir?: string;

  private constructor(
    private readonly create: () => Promise<string>,
    /** Whether dispose() removes the folder (only folders this workspace made). */
    private readonly owned: boolean,
    /** The folder it copies or uses in place; none for a fresh temp folder. */
    private readonly source?: string,
  ) {}

  /** An empty folder under os.tmpdir(), made on first root() and removed by dispose(). */
  static temp(): FolderWorkspace {
    return new FolderWorkspace(makeTempDir, true);
  }

  /**
   * A fresh temp copy of `srcDir` (symlinks inside copied as symlinks), made on first root(),
   * removed by dispose(). `srcDir` itself may be a symlink to a folder: the folder is copied.
   * `leaveOut` is a folder not copied when it lies inside `srcDir` (agentcheck's own runs folder);
   * `leaveOutName` names files and folders not copied wherever they lie (a paused run's).
   */
  static copyOf(srcDir: string, leaveOut?: string, leaveOutName?: (name: string) => boolean): FolderWorkspace {
    assertPathArgument(srcDir, 'FolderWorkspace.copyOf', 'srcDir', 'a folder path');
    const source = path.resolve(srcDir);
    return new FolderWorkspace(
      async () => {
        await requireFolder(source);
        // Only the top-level link is followed (cp would copy the link itself, not the folder).
        const real = await realpath(source);
        // fs.cp's own refusal says "cannot copy / to a subdirectory of self": said in the words
        // the checks before a run use (workspaceFolderProblem), with the way round it.
        const holds = holdsTempFolder(real);
        if (holds) throw new RunError('WORKSPACE_COPY_FAILED', `workspace could not be copied: ${source}: ${holds}`);
        // Only a folder strictly inside the source is left out (not one that holds the source).
        const left = leaveOut === undefined ? undefined : realPathAllowMissing(path.resolve(leaveOut)).path;
        const skipped = left !== undefined && left !== real && isInsideFolder(real, left) ? left : undefined;
        const dir = await makeTempDir();
        try {
          // verbatimSymlinks keeps link targets as written, so a link that points outside the
          // fixture still points outside the copy and resolve() refuses it.
          await cp(real, dir, {
            recursive: true,
            verbatimSymlinks: true,
            filter: (from) => (skipped === undefined || !isInsideFolder(skipped, from)) && !(from !== real && leaveOutName?.(path.basename(from))),
          });
        } catch (error) {
          await rm(dir, { recursive: true, force: true });
          throw copyFailure(source, dir, error);
        }
        return dir;
      },
      true,
      source,
    );
  }

  /** An existing folder used in place; dispose() leaves it alone. */
  static at(dir: string): FolderWorkspace {
    assertPathArgument(dir, 'FolderWorkspace.at', 'dir', 'a folder path');
    const folder = path.resolve(dir);
    return new FolderWorkspace(
      async () => {
        await requireFolder(folder);
        return realpath(folder);
      },
      false,
      folder,
    );
  }

  /**
   * Throws RunError WORKSPACE_NOT_FOUND when the folder it copies or uses is missing or a file, or,
   * once made, when its root is no longer the folder the run worked in: gone (a paused run's,
   * removed by a cleaner of temporary folders), or replaced by a symbolic link or a file. A run
   * going on there would make a fresh folder without the files it left, or fail every tool call
   * as a sandbox escape (the root is a real path, which a link no longer is).
   */
  async check(): Promise<void> {
    if (this.rootPromise === undefined) {
      if (this.source !== undefined) await requireFolder(this.source);
      return;
    }
    const dir = await this.rootPromise.catch(() => undefined);
    const found = dir === undefined ? undefined : madeRootChange(dir);
    if (found) {
      throw new RunError('WORKSPACE_NOT_FOUND', `the run's workspace folder ${dir} ${found}: the run cannot go on without the files it left there`);
    }
  }

  /** The absolute, real (symlink-free) root folder; made on first call. */
  root(): Promise<string> {
    this.rootPromise ??= this.create().then((dir) => {
      if (this.owned) this.madeDir = dir;
      return dir;
    });
    return this.rootPromise;
  }

  /** Maps a workspace-relative path to a real absolute path inside the root, or throws ToolError. */
  async resolve(relativePath: string, options: { forWrite?: boolean } = {}): Promise<string> {
    const root = await this.root();
    if (typeof relativePath !== 'string' || relativePath.includes('\0')) {
      throw new ToolError('workspace', `invalid path ${JSON.stringify(relativePath)}: expected a relative path string`, 'INVALID_PATH');
    }
    if (path.isAbsolute(relativePath) || path.win32.isAbsolute(relativePath)) {
      throw escape(relativePath, 'absolute paths are not allowed; give a path relative to the workspace root');
    }
    // `..` is resolved lexically first, so `a/../b` is fine and `../x` is refused before any
    // file system access; the OS never sees a `..` after a symlink because we return real paths.
    const lexical = path.resolve(root, relativePath);
    if (!isInsideFolder(root, lexical)) throw escape(relativePath, 'it leaves the workspace root via ".."');

    const real = realPathOrLoop(lexical, relativePath);
    if (!isInsideFolder(root, real.path)) {
      throw escape(relativePath, 'a symlink on the path points outside the workspace root');
    }
    // A file, named pipe or link to a file where a folder of the path belongs: the OS's ENOTDIR,
    // said here once so every file tool (write_file too) gives it the same type (docs/formats.md).
    if (real.missing && !isFolder(real.existing)) throw notAFolderOnPath(relativePath);
    // A trailing "/" (or "/.") asks for a folder, but path.resolve drops it: without this check
    // `notes.txt/` would read or overwrite the file, where the OS says ENOTDIR.
    if (namesFolder(relativePath)) {
      if (!real.missing && !isFolder(real.path)) throw notAFolderOnPath(relativePath);
      if (real.missing && options.forWrite) {
        throw new ToolError(
          'workspace',
          `${relativePath} ends in "${relativePath.endsWith('/.') ? '/.' : '/'}", which names a folder: expected the path of a file, relative to the workspace root`,
          'INVALID_PATH',
        );
      }
    }
    if (real.missing && !options.forWrite) {
      throw new ToolError('workspace', `no such file or directory: ${relativePath} (paths are relative to the workspace root)`, 'FILE_NOT_FOUND');
    }
    return real.path;
  }

  /** Removes the folder when this workspace made it; a later root() makes a fresh one. */
  async dispose(): Promise<void> {
    const pending = this.rootPromise;
    this.rootPromise = undefined;
    this.madeDir = undefined;
    if (!pending || !this.owned) return;
    const dir = await pending.catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  /** dispose() for a process that is exiting (no await is possible then): removes a made folder now. */
  disposeSync(): void {
    const dir = this.madeDir;
    this.rootPromise = undefined;
    this.madeDir = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

async function makeTempDir(): Promise<string> {
  // realpath: on macOS os.tmpdir() is itself behind a symlink (/var -> /private/var), and every
  // containment check compares real paths against the root.
  return realpath(await mkdtemp(path.join(tmpdir(), 'agentcheck-ws-')));
}

/**
 * What is at a workspace's made root `dir` (a real path) when it is no longer that folder: gone,
 * a symbolic link (to where), not a folder, or reached through a link on its way; else undefined.
 */
function madeRootChange(dir: string): string | undefined {
  let info;
  try {
    info = lstatSync(dir);
  } catch {
    return 'is gone since the run worked in it (removed by a cleaner of temporary folders?)';
  }
  if (info.isSymbolicLink()) return `is a symbolic link now (to ${readlinkOrUnknown(dir)}), not the folder the run worked in`;
  if (!info.isDirectory()) return 'is no longer a folder (a file is there now), not the folder the run worked in';
  let real;
  try {
    real = realpathSync(dir);
  } catch {
    return 'cannot be reached any more (a symbolic link loop on its way?)';
  }
  if (real !== dir) return `is reached through a symbolic link now (it leads to ${real}), not the folder the run worked in`;
  return undefined;
}

function readlinkOrUnknown(link: string): string {
  try {
    return readlinkSync(link);
  } catch {
    return 'a target that cannot be read';
  }
}

async function requireFolder(dir: string): Promise<void> {
  // A file is named as one, as testRun and a scenario's workspace name it (the code stays: no folder there).
  const problem = workspaceFolderMissing(dir);
  if (problem) throw new RunError('WORKSPACE_NOT_FOUND', problem);
}

/**
 * Whether `error` is a workspace copy that failed on a file fs.cp cannot copy (a named pipe,
 * socket or device in the source folder): the folder given is at fault, not the machine.
 */
export function isUncopyableFileError(error: unknown): error is RunError {
  const code = ((error as { cause?: NodeJS.ErrnoException } | undefined)?.cause as NodeJS.ErrnoException | undefined)?.code;
  return error instanceof RunError && error.code === 'WORKSPACE_COPY_FAILED' && code !== undefined && code in UNCOPYABLE_REASONS;
}

/**
 * The error of a workspace that could not be copied: `workspace could not be copied: <file in
 * the source folder>: <reason>`. fs.cp names the destination (the temp copy, which is gone by
 * now), so the path is mapped back to the source.
 */
function copyFailure(source: string, copy: string, error: unknown): RunError {
  const failure = error as NodeJS.ErrnoException & { info?: { message?: string } };
  const toSource = (text: string) => text.split(copy).join(source);
  const where = typeof failure.path === 'string' ? toSource(failure.path) : source;
  const detail = failure.info?.message ?? failure.message ?? String(error);
  // Node's own message repeats the path; the reason alone reads better after it.
  const reason =
    UNCOPYABLE_REASONS[failure.code ?? ''] ??
    toSource(detail)
      .replace(`: ${where}`, '')
      .replace(/, \w+ '[^']*'(?: -> '[^']*')?$/, '');
  return new RunError('WORKSPACE_COPY_FAILED', `workspace could not be copied: ${where}: ${reason}`, { cause: error });
}

function escape(relativePath: string, why: string): ToolError {
  return new ToolError('workspace', `path ${JSON.stringify(relativePath)} is outside the workspace: ${why}`, 'SANDBOX_ESCAPE');
}

/**
 * realPathAllowMissing, a loop as the tool error it is: named by the path the model gave, as the
 * `file` check names it, never by the temp folder's absolute path.
 */
function realPathOrLoop(target: string, relativePath: string): RealPath {
  try {
    return realPathAllowMissing(target);
  } catch (error) {
    if (error instanceof SymlinkLoop) {
      throw new ToolError('workspace', `${relativePath} is a symlink loop (too many levels of symlinks)`, 'SYMLINK_LOOP');
    }
    throw error;
  }
}

/** The OS's ENOTDIR in the workspace's words: a file, named pipe or link to a file where a folder of the path belongs. */
function notAFolderOnPath(relativePath: string): ToolError {
  return new ToolError('workspace', `${relativePath}: a part of the path is not a folder`, 'FS_ENOTDIR');
}

/** Whether the real path `existing` is a folder (one that cannot be read is taken as one: not found). */
function isFolder(existing: string): boolean {
  try {
    return statSync(existing).isDirectory();
  } catch {
    return true;
  }
}
