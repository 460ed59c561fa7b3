/**
 * Whether a file or folder name is one a paused run leaves in a runs folder: `<run_id>.checkpoint.json`,
 * its claim and temporary files, `<run_id>.workspace`. Every workspace copy a run makes leaves
 * them out wherever they lie (an earlier --spans folder's runs), so the agent never sees a paused
 * run (docs/cli.md, test-run; docs/mcp.md, test_run).
 */
export function isRunArtifact(name: string): boolean {
  return RUN_ARTIFACT.test(name);
}
const RUN_ARTIFACT = /^\.?[0-9a-f]{32}\.(?:checkpoint\.json(?:\..+)?|workspace)$/;
