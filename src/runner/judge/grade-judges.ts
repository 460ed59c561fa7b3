import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { AgentcheckError } from '../../config/errors.js';
import { createModel } from '../../engine/providers/index.js';
import { abnormalStop } from '../../engine/loop/model-stop.js';
import { genAiProviderName } from '../../engine/providers/registry.js';
import { ATTR, chatResponseAttributes, EVALUATION_EVENT, SPAN } from '../../spans/conventions.js';
import type { SpanRecord } from '../../spans/span-record.js';
import type { SpanStore } from '../../spans/span-store.js';
import type { Evidence, Judgement } from '../../verdicts/index.js';
import { DEFAULT_JUDGE_THRESHOLD } from '../../verdicts/checks/judge.js';
import type { JudgeJob } from './grader-model.js';
import { graderRequest, parseGraderAnswer } from './grader-prompt.js';

/** What grading needs from the run it grades. */
export interface GradeContext {
  tracer: Tracer;
  store: SpanStore;
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

/** The grader answers by check id, and the grading spans (one `evaluate` trace per check). */
export interface Grading {
  judgements: Record<string, Judgement>;
  spans: SpanRecord[];
}

/**
 * Asks each judge check's grader, one after the other, and returns the answers for the
 * evidence. Each grading is a trace of its own (`evaluate judge#N` with its `chat` span), so
 * it never counts as the agent's turns, tokens or tools; its result is the span's
 * `gen_ai.evaluation.result` event (docs/spans.md). A grader that fails is that check's error.
 */
export async function gradeJudges(jobs: readonly JudgeJob[], evidence: Evidence, context: GradeContext): Promise<Grading> {
  const grading: Grading = { judgements: {}, spans: [] };
  for (const job of jobs) {
    const root = context.tracer.startSpan(
      `${SPAN.evaluate} ${job.id}`,
      {
        root: true,
        attributes: { [ATTR.operationName]: SPAN.evaluate, [ATTR.evaluationName]: job.id },
      },
      ROOT_CONTEXT,
    );
    const judgement = await askGrader(job, evidence, context, root);
    recordResult(root, job, judgement);
    root.end();
    grading.judgements[job.id] = judgement;
    grading.spans.push(...context.store.take(root.spanContext().traceId));
  }
  return grading;
}

async function askGrader(job: JudgeJob, evidence: Evidence, context: GradeContext, root: Span): Promise<Judgement> {
  const model = createModel(job.llm, { script: job.script, env: context.env });
  const span = context.tracer.startSpan(
    `${SPAN.chat} ${model.modelId}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { [ATTR.operationName]: SPAN.chat, [ATTR.providerName]: genAiProviderName(model.provider), [ATTR.requestModel]: model.modelId },
    },
    trace.setSpan(ROOT_CONTEXT, root),
  );
  try {
    const response = await model.generate({ ...graderRequest(job.params, evidence, job.llm), signal: context.signal });
    span.setAttributes(chatResponseAttributes(response, model.modelId));
    // A refused, cut-off or filtered answer is never graded, even when its text happens to parse.
    const abnormal = abnormalStop(response, model.provider, 'grader');
    if (abnormal) {
      span.setAttribute(ATTR.errorType, abnormal.error.type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: abnormal.error.message.slice(0, 500) });
      return { error: abnormal.error.message, error_type: 'grader_answer_invalid' };
    }
    return parseGraderAnswer(response.text, response.toolCalls);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    span.setAttribute(ATTR.errorType, error instanceof AgentcheckError ? error.code : 'exception');
    span.setStatus({ code: SpanStatusCode.ERROR, message: message.slice(0, 500) });
    return { error: `the grader call failed: ${message}`, error_type: 'grader_call_failed' };
  } finally {
    span.end();
  }
}

/** The GenAI conventions' evaluation event; a failed call or an unusable answer carries `error.type` instead of a score. */
function recordResult(root: Span, job: JudgeJob, judgement: Judgement): void {
  const id = job.id;
  if ('error' in judgement) {
    root.addEvent(EVALUATION_EVENT, { [ATTR.evaluationName]: id, [ATTR.errorType]: judgement.error_type, [ATTR.evaluationExplanation]: judgement.error });
    root.setAttribute(ATTR.errorType, judgement.error_type);
    root.setStatus({ code: SpanStatusCode.ERROR, message: judgement.error.slice(0, 500) });
    return;
  }
  root.addEvent(EVALUATION_EVENT, {
    [ATTR.evaluationName]: id,
    [ATTR.evaluationScore]: judgement.score,
    // The label is the check's own status (score against its threshold), as the report shows it.
    [ATTR.evaluationLabel]: judgement.score >= (job.params.threshold ?? DEFAULT_JUDGE_THRESHOLD) ? 'pass' : 'fail',
    [ATTR.evaluationExplanation]: judgement.reason,
  });
}
