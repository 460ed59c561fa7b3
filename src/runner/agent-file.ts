import { ConfigError } from '../config/errors.js';
import { SourceDocument } from '../config/source.js';
import { loadAgentBuild } from '../engine/revision/load-build.js';
import type { Revision } from '../engine/revision/types.js';
import { isReportShape, isSuiteConfigShape } from './scenario/document-shape.js';

/**
 * loadAgentBuild for a file a user gave as the agent build (test-run's --agent, MCP test_run's
 * and testRun's `agent`): another agentcheck file given there (a suite config, an approvals
 * policy, a report) is said to be what it is, with where it belongs, rather than as a build's
 * missing keys (a config's `scenarios:` list read as a scenario file's).
 */
export function loadAgentFile(file: string): Revision {
  try {
    return loadAgentBuild(file);
  } catch (error) {
    const other = error instanceof ConfigError ? otherFileKind(file) : undefined;
    if (other) throw new ConfigError({ file, line: 1, column: 1 }, other);
    throw error;
  }
}

/** What a file that is no agent build is, and where it goes; undefined for anything else. */
function otherFileKind(file: string): string | undefined {
  let value: unknown;
  try {
    // Problems kept, not thrown: a file whose keys come through a YAML `<<` is still named by them.
    value = SourceDocument.read(file, { problems: 'keep' }).value;
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || 'id' in value) return undefined;
  const keys = Object.keys(value);
  if (isSuiteConfigShape(value, file)) {
    return 'is a suite config, not an agent build (id and agent at the top): run and validate read it with --config FILE';
  }
  if (keys.length > 0 && keys.every((key) => key === 'default' || key === 'tools')) {
    return 'is an approvals policy {default, tools}, not an agent build (id and agent at the top): test-run takes it with --approvals FILE';
  }
  if (isReportShape(value)) return 'is an agentcheck report, not an agent build (id and agent at the top): compare and merge read reports';
  if (keys.length === 1 && keys[0] === 'http')
    return 'is a mocks file {http: [...]}, not an agent build (id and agent at the top): test-run takes it with --mocks FILE';
  if (keys.includes('messages') && keys.every((key) => key === 'messages' || key === 'context')) {
    return 'is an inputs file {messages, context}, not an agent build (id and agent at the top): test-run takes it with --inputs FILE';
  }
  return undefined;
}
