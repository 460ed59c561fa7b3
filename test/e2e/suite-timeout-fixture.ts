import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../../src/runner/report/report.js';

/** A quick scripted scenario whose one check is the custom module `checks/<name>.mjs`. */
export function checkedByModule(name: string): string {
  return `name: ${name}
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}
expect:
  terminal_tool: finish
  checks:
    - custom: {module: ./checks/${name}.mjs}
`;
}

// A suite run past its time limit is aborted through its signal, like test-run's cap: the engine
// ends the turn itself, and the row keeps what ran. The limits are far below the scripted delays,
// so the outcome does not depend on how fast the machine is.

export const AGENT = `id: timeout-bot
agent:
  name: Timeout bot
  llm: {provider: scripted, model: s}
  tools:
    - {name: lookup_order, description: Look up., read_only: true, parameters: {type: object, properties: {order_id: {type: string}}}, returns: {status: delivered}}
    - {name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}
`;

/** Looks the order up, then the model takes 30 s to answer. */
export function stallingScenario(name: string, extra = ''): string {
  return `name: ${name}
agent: agent.yaml
inputs: {messages: [{role: user, content: refund 1234}]}
model:
  script:
    - tool_calls: [{name: lookup_order, args: {order_id: "1234"}}]
    - {text: too late, delay_ms: 30000}
expect: {terminal_tool: finish}
${extra}`;
}

export function readReport(out: string): Report {
  return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
}
