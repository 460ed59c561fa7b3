import type { ToolSpec } from '../../revision/types.js';
import type { Tool } from '../tool.js';
import { toolHeader } from './tool-header.js';

/** A tool with a fixed result (`returns: <value>`), for fixtures; each call gets its own copy. */
export function createReturnsTool(spec: ToolSpec): Tool {
  // A fresh copy per call, so a caller that mutates one result cannot change what later calls
  // return; parsed from JSON made once (the value comes from YAML or JSON, so JSON holds it).
  const json = JSON.stringify(spec.returns);
  return {
    ...toolHeader(spec, 'returns'),
    async execute() {
      return { result: json === undefined ? undefined : JSON.parse(json), isError: false };
    },
  };
}
