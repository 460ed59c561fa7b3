import { SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { AgentcheckError, RunError } from '../config/errors.js';

/**
 * Runs `fn` inside a child span of `parent` (plan_step, chain_step, component, invoke_workflow).
 * A throw marks the span as failed with the error's code (docs/spans.md, error.type)
 * and is rethrown: the span records the structure, the caller decides what the failure means.
 */
export async function withSpan<T>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  parent: Context,
  fn: (context: Context, span: Span) => Promise<T>,
  spelling: 'run' | 'tool' = 'run',
): Promise<T> {
  const span = tracer.startSpan(name, { attributes }, parent);
  try {
    return await fn(trace.setSpan(parent, span), span);
  } catch (error) {
    // A run-ending error keeps its code as the root spells it (FLOW_MISSING_INPUT); a tool's is
    // lower case, as on execute_tool, and so is every one a composite tool's step throws (`tool`).
    const runCode = error instanceof RunError && spelling === 'run';
    const type = runCode ? error.code : error instanceof AgentcheckError ? error.code.toLowerCase() : 'exception';
    markFailed(span, type, (error as Error)?.message ?? String(error));
    throw error;
  } finally {
    span.end();
  }
}

/**
 * withSpan for a step of a composite tool (plan_step, chain_step): a RunError thrown through it
 * becomes that tool's failure (plan-tool.ts; a chain's reaches the tool caller), so its code is
 * spelt as on the tool's execute_tool, lower case (`plan_tool_failed`).
 */
export function withToolStepSpan<T>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  parent: Context,
  fn: (context: Context, span: Span) => Promise<T>,
): Promise<T> {
  return withSpan(tracer, name, attributes, parent, fn, 'tool');
}

/** Sets status ERROR and `error.type` on a span (a failure that was handled, not thrown). */
export function markFailed(span: Span, errorType: string, message: string): void {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message: message.slice(0, 500) });
}
