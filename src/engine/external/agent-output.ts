import { AgentcheckError } from '../../config/errors.js';

/** An external agent's final answer: its text and, from an http engine, its own trace id. */
export interface AgentOutput {
  output: string;
  trace_id?: string;
}

/** An external agent failed: it crashed, hung, or answered in a shape agentcheck cannot read. */
export class ExternalAgentError extends AgentcheckError {}

/** Longest stderr tail quoted in an error. */
const STDERR_TAIL_CHARS = 2_000;

/** What an error message quoting a process's stderr tail says before it (`...; stderr: <tail>`). */
export const STDERR_QUOTE = '; stderr: ';

/**
 * Where an error message's quote of what an agent printed begins (after `; stderr: `, or after
 * `answered HTTP 500: ` for an http answer's body), or -1: its line breaks are the agent's, not
 * a list of problems (docs/report-format.md).
 */
export function agentQuoteStart(message: string): number {
  const match = /; stderr: |answered HTTP \d{3}(?: \([^)]*\))?: /.exec(message);
  return match ? match.index + match[0].length : -1;
}

/** The last part of a process's stderr, for an error message. */
export function stderrTail(stderr: string): string {
  const text = stderr.trimEnd();
  if (!text) return '(stderr was empty)';
  return text.length > STDERR_TAIL_CHARS ? `...${text.slice(-STDERR_TAIL_CHARS)}` : text;
}

/**
 * Reads an answer (docs/external-agents.md, "The answer"): a JSON object with `output` (text, or
 * any JSON value, kept as JSON text) and an optional `trace_id`; anything else is the answer's text.
 * `strict` (an http engine's body) refuses what is not such an object, naming `source` (`POST <url>`).
 */
export function parseAgentOutput(text: string, strict: boolean, source = 'the answer'): AgentOutput {
  const trimmed = text.trim();
  let parsed: unknown;
  try {
    parsed = trimmed.startsWith('{') ? JSON.parse(trimmed) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && 'output' in parsed) {
    const { output, trace_id: traceId } = parsed as { output: unknown; trace_id?: unknown };
    const answer: AgentOutput = { output: typeof output === 'string' ? output : JSON.stringify(output) };
    if (typeof traceId === 'string' && traceId) answer.trace_id = traceId;
    return answer;
  }
  if (strict) {
    // Say what is wrong with it: not JSON, not an object, or an object without `output`.
    const why =
      parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
        ? `a JSON object without the "output" key (it has: ${Object.keys(parsed).join(', ') || 'no keys'})`
        : parsed === undefined
          ? 'not a JSON object'
          : 'JSON that is not an object';
    throw new ExternalAgentError(
      'EXTERNAL_AGENT_BAD_ANSWER',
      `${source} is ${why}; expected {"output": ..., "trace_id"?: ...}, got ${JSON.stringify(trimmed.slice(0, 200))}`,
    );
  }
  return { output: trimmed };
}
