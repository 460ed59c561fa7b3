/**
 * The files `agentcheck init` writes (path relative to the target folder -> text): a scripted
 * agent build, one passing scenario, one that demonstrates a caught defect, a suite config and
 * a README of next steps. Everything runs offline: the model is scripted, the tools return
 * fixed results.
 */
export const STARTER_FILES: Readonly<Record<string, string>> = {
  'agents/support-bot.yaml': `# An agent build: the model, its instructions and its tools (docs/formats.md in agentcheck).
id: support-bot
agent:
  name: Support bot
  instructions: Look the order up before you refund it.
  # A scripted model answers from each scenario's model.script; swap in
  # {provider: openai, model: gpt-4.1-mini} (with OPENAI_API_KEY) to test a real model.
  llm: {provider: scripted, model: starter}
  max_turns: 6
  tools:
    - name: lookup_order
      description: Look an order up by its id.
      read_only: true
      parameters: {type: object, properties: {order_id: {type: string}}, required: [order_id]}
      returns: {order_id: "1234", status: delivered, total: 12.5}
    - name: create_refund
      description: Refund an order.
      parameters:
        type: object
        properties: {order_id: {type: string}, reason: {type: string, enum: [damaged, late, other]}}
        required: [order_id, reason]
      returns: {ok: true, refund_id: r-1}
`,
  'scenarios/refund.scenario.yaml': `# A scenario: the input, what the (scripted) model does, and what must hold afterwards.
name: a damaged order is looked up, then refunded
agent: ../agents/support-bot.yaml
inputs:
  messages: [{role: user, content: "Order 1234 arrived broken, please refund it."}]
model:
  script:
    - tool_calls: [{name: lookup_order, args: {order_id: "1234"}}]
    - tool_calls: [{name: create_refund, args: {order_id: "1234", reason: damaged}}]
    - text: Your refund is on its way.
expect:
  terminal_tool: create_refund
  checks:
    - tool_called: {tool: lookup_order, args: {order_id: "1234"}}
    - tool_order: {before: [lookup_order], after: create_refund}
    - output: {contains: refund}
`,
  'scenarios/caught-defect.scenario.yaml': `# A caught defect: this agent refunds without looking the order up. The tool_order check
# fails, and expect_failure turns that failure into a pass: the suite proves the check works.
# Remove expect_failure to see how a real failure is reported.
name: a refund without a lookup is caught
agent: ../agents/support-bot.yaml
expect_failure: the agent skips lookup_order; tool_order must catch it
inputs:
  messages: [{role: user, content: "Refund order 1234 now."}]
model:
  script:
    - tool_calls: [{name: create_refund, args: {order_id: "1234", reason: other}}]
    - text: Refunded.
expect:
  terminal_tool: create_refund
  checks:
    - tool_order: {before: [lookup_order], after: create_refund}
`,
  'agentcheck.config.yaml': `# Suite config: which scenarios run, how often, and which reports are written.
scenarios: [scenarios]
repeat: 1
reporters: [table, json, html]
`,
  'README.md': `# agentcheck starter

Written by \`agentcheck init\`. Everything here runs offline: the model is scripted and the
tools return fixed results.

| file | what it is |
|---|---|
| \`agents/support-bot.yaml\` | the agent build under test: model, instructions, tools |
| \`scenarios/refund.scenario.yaml\` | a passing scenario: lookup, then refund, checked from the run's spans |
| \`scenarios/caught-defect.scenario.yaml\` | a defect the checks catch (\`expect_failure\` makes it count as a pass) |
| \`agentcheck.config.yaml\` | the suite: scenario folders, repeats, reporters |

## Next steps

Run these commands from this folder (\`cd\` into it first): the paths in them (\`.\`,
\`reports/\`) are relative to it, and \`agentcheck run .\` uses this folder's
\`agentcheck.config.yaml\` only when \`.\` is this folder.

1. Check the files: \`npx agentcheck validate .\`
2. Run the suite: \`npx agentcheck run .\` (reports go to \`reports/\`: \`report.json\`,
   \`report.html\`, \`spans.jsonl\`).
3. Delete the \`expect_failure\` line of \`scenarios/caught-defect.scenario.yaml\` and run again to
   see a failure: the failing check, the numbered tool calls and why the run stopped.
4. Describe your own agent in \`agents/\` (tools may call HTTP endpoints or commands; mock
   them per scenario with \`mocks.http\`), and add scenarios next to these.
5. Try a real model: set \`llm: {provider: openai, model: gpt-4.1-mini}\`, export
   \`OPENAI_API_KEY\`, and drop \`model.script\` from a scenario.
6. Rerun only what failed last time: \`npx agentcheck run . --only-failed reports/report.json\`;
   pick scenarios by name or regular expression: \`npx agentcheck run . --grep 'refund|lookup'\`.
`,
};
