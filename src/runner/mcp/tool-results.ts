import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AgentcheckError, ConfigError } from '../../config/errors.js';
import { secretEnvValues } from '../../config/redact.js';
import { Redactor } from '../../config/redactor.js';
import { refuseInsideRun } from '../recursion-guard.js';

/** A successful tool result: the value as structured content and as indented JSON text. */
export function structuredResult(value: object): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value as Record<string, unknown>,
  };
}

/**
 * A tool error (`isError: true`) a model can act on: a ConfigError keeps its location
 * (`file:line:col at path: expected ...`), other agentcheck errors their stable code.
 */
export function errorResult(error: unknown): CallToolResult {
  // An error may quote a value that holds one of the server's keys (docs/security.md): scrubbed as the CLI's stderr is.
  const text = new Redactor().add(secretEnvValues(process.env)).text(describeFailure(error));
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The RECURSION_GUARD tool error inside another run, else undefined: test_run and resume_run
 * answer it before their arguments' form is checked (docs/mcp.md, The recursion guard).
 */
export function insideRunRefusal(): CallToolResult | undefined {
  try {
    refuseInsideRun();
    return undefined;
  } catch (error) {
    return errorResult(error);
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof ConfigError) return `invalid input: ${error.message}`;
  if (error instanceof AgentcheckError) return `${error.code}: ${error.message}`;
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}
