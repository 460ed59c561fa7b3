import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AgentcheckError, ConfigError } from '../../config/errors.js';
import type { Redactor } from '../../config/redactor.js';
import { runRedactor } from '../secrets/run-secrets.js';
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
  return { content: [{ type: 'text', text: serverRedactor().text(describeFailure(error)) }], isError: true };
}

/**
 * The server's own redactor: the secret variables of its environment. A refusal or a problem may
 * quote a value (an argument, a file's name) that holds one (docs/security.md): every tool error
 * and validate's result go through it, as the CLI's stderr does.
 */
export function serverRedactor(): Redactor {
  return runRedactor(process.env, []);
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
