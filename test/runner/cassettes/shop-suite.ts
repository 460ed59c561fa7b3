import type { CassetteSettings } from '../../../src/runner/cassettes/cassette-settings.js';
import type { ScenarioRow } from '../../../src/runner/report/report.js';
import { loadSuite } from '../../../src/runner/suite/load-suite.js';
import { runSuite } from '../../../src/runner/suite/run-suite.js';
import { emptySuiteConfig } from '../../../src/runner/suite/suite-config.js';

/** Secrets the suite sends; none may reach a cassette file. */
export const SECRETS = {
  openaiKey: 'sk-test-secret',
  shopQueryKey: 'shop-query-secret-123',
  shopHeaderKey: 'shop-header-secret-456',
  cookie: 'cookie-secret-value-42',
};

/** An OpenAI-compatible agent at `origin` with an http tool on the same server and a fixed-result tool. */
export function agentYaml(origin: string): string {
  return `id: shop-bot
agent:
  name: Shop bot
  instructions: You handle refunds. Look the order up first.
  llm: {provider: openai, model: gpt-test, base_url: "${origin}/v1", parameters: {temperature: 0}}
  max_turns: 6
  permissions: {mode: allow}
  tools:
    - name: lookup_order
      description: Look an order up by its id.
      read_only: true
      parameters: {type: object, properties: {order_id: {type: string}}, required: [order_id]}
      http:
        method: GET
        url: "${origin}/shop/orders/{{ args.order_id }}?api_key=${SECRETS.shopQueryKey}&view=full"
        headers: {x-api-key: ${SECRETS.shopHeaderKey}}
    - name: create_refund
      description: Create a refund.
      parameters: {type: object, properties: {order_id: {type: string}, reason: {type: string}}}
      returns: {ok: true, refund_id: r1}
`;
}

/** The refund scenario; `extra` is appended at scenario level (a delta, mocks). */
export function scenarioYaml(extra = ''): string {
  return `name: refund
agent: agent.yaml
inputs: {messages: [{role: user, content: "Refund order 1234, it arrived broken."}]}
expect:
  terminal_tool: create_refund
  checks:
    - tool_called: {tool: lookup_order, args: {order_id: "1234"}}
    - output: {contains: Refund created}
${extra}`;
}

/** Loads every scenario under `dir` and runs it with `cassettes`, as `agentcheck run` does. */
export async function runShopSuite(
  dir: string,
  cassettes: CassetteSettings,
  env: Record<string, string> = { OPENAI_API_KEY: SECRETS.openaiKey },
  repeat = 1,
): Promise<ScenarioRow[]> {
  const plan = loadSuite({ paths: [dir], config: emptySuiteConfig(dir), repeat }, dir);
  return (await runSuite(plan, { concurrency: 4, env, cassettes })).scenarios;
}

/** The parts of a row that must not change between a recording and its replay. */
export function stableRow(row: ScenarioRow): unknown {
  return {
    id: row.id,
    variant: row.variant,
    repeat: row.repeat,
    status: row.status,
    reason: row.reason,
    error: row.error,
    turns: row.turns,
    verdict: row.test_run?.verdict,
    verdict_reason: row.test_run?.verdict_reason,
    output: row.test_run?.output,
    tools: row.test_run?.tools,
    approvals: row.test_run?.approvals,
    checks: row.checks.map(({ id, kind, status, reason }) => ({ id, kind, status, reason })),
  };
}
