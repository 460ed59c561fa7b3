/** A small suite with judge checks: a scripted agent that calls one tool and answers, graded by a model. */
import type { CassetteSettings } from '../../../src/runner/cassettes/cassette-settings.js';
import type { ScenarioRow } from '../../../src/runner/report/report.js';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { runSuite } from '../../../src/runner/suite/run-suite.js';
import { emptySuiteConfig, loadSuiteConfig } from '../../../src/runner/suite/suite-config.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';

export const AGENT = `id: refund-bot
agent:
  name: Refund bot
  instructions: You handle refunds.
  llm: {provider: scripted, model: scripted}
  permissions: {mode: allow}
  tools:
    - name: create_refund
      description: Create a refund.
      parameters: {type: object, properties: {order_id: {type: string}}}
      returns: {ok: true, refund_id: r1}
`;

/** A scenario whose agent refunds order 1234; `checks` is the YAML list under expect.checks. */
export function scenario(checks: string): string {
  return `name: refund
agent: agent.yaml
inputs: {messages: [{role: user, content: "Refund order 1234, it arrived broken."}]}
model:
  script:
    - tool_calls: [{name: create_refund, args: {order_id: "1234"}}]
      usage: {input_tokens: 10, output_tokens: 5}
    - text: Refund r1 created for order 1234. Sorry it arrived broken!
      usage: {input_tokens: 20, output_tokens: 7}
expect:
  checks:
${checks}`;
}

/** A scripted grader that answers `text` (YAML flow map for a judge's `model`). */
export function scriptedGrader(text: string): string {
  return `{script: [{text: ${JSON.stringify(text)}, usage: {input_tokens: 100, output_tokens: 30}}]}`;
}

/** Loads and runs every scenario under `dir`, collecting the spans the suite would write. */
export async function runJudgeSuite(
  dir: string,
  options: { config?: string; cassettes?: CassetteSettings; env?: Record<string, string> } = {},
): Promise<{ rows: ScenarioRow[]; spans: SpanRecord[] }> {
  const config = options.config ? loadSuiteConfig(options.config, dir) : emptySuiteConfig(dir);
  const plan = loadSuite({ paths: [dir], config }, dir);
  const spans: SpanRecord[] = [];
  const report = await runSuite(plan, { concurrency: 1, env: options.env ?? {}, cassettes: options.cassettes, onSpans: (got) => spans.push(...got) });
  return { rows: report.scenarios, spans };
}
