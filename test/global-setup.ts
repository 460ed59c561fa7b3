import { bundleTestServers } from './helpers/mcp-server-bundles.js';

/** Once per test run, before any test file: what the tests start as child processes is built. */
export default async function setup(): Promise<void> {
  await bundleTestServers();
}
