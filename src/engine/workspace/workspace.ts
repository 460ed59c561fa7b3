/**
 * The folder a run's file tools and commands are confined to (docs/formats.md, Tools).
 * Implementations refuse paths that leave the root: `..`, absolute paths, and symlinks
 * whose real path is outside.
 */
export interface Workspace {
  /** Absolute root folder; created on first use for lazily made workspaces. */
  root(): Promise<string>;
  /**
   * Resolves a workspace-relative path to an absolute one inside the root, or throws a
   * ToolError (code SANDBOX_ESCAPE) naming the path. `forWrite` allows a path that does not exist
   * yet (a file to make: one ending in "/" is refused). A path ending in "/" that names a file is FS_ENOTDIR.
   */
  resolve(relativePath: string, options?: { forWrite?: boolean }): Promise<string>;
  /** Removes the folder if this workspace owns it (temp copies). */
  dispose(): Promise<void>;
  /**
   * Throws when the folder the workspace is made from or used in is missing, without making
   * anything: a run checks it before it starts, so it fails at once instead of in every tool.
   */
  check?(): Promise<void>;
}
