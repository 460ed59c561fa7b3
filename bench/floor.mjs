// The same-work floor: a hand-written program doing what `agentcheck run` does for the bench
// suite, and nothing else. It reads the same files (agent.yaml and the scenario files, parsed with
// js-yaml), plays each scenario's 3-step script (two tool calls in parallel, then the terminal
// tool, then the answer), records the same 7 spans per scenario (invoke_agent, 3 chat,
// 3 execute_tool, with the engine's attributes), runs the same 3 checks on them (tool_called with
// args, tool_order, output) and writes spans.jsonl and report.json in the same shapes.
// Usage: node bench/floor.mjs SUITE_DIR OUT_DIR
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

const [suiteDir, outDir] = process.argv.slice(2);
const started = new Date();
const agent = yaml.load(readFileSync(join(suiteDir, 'agent.yaml'), 'utf8')).agent;
const tools = new Map(agent.tools.map((tool) => [tool.name, tool]));
const resolved = JSON.stringify({
  harness: 'agentcheck/0.1.0',
  provider: agent.llm.provider,
  model: agent.llm.model,
  parameters: {},
  max_turns: agent.max_turns,
  permissions_mode: 'allow',
  tools: agent.tools.map((t) => ({ name: t.name, permission: 'allow' })),
  skills: [],
  skills_delivery: 'inline',
  skills_not_delivered: [],
  revision_id: 'bench-bot',
  revision_hash: '724b77ac045c802c',
  delta_hash: null,
});
mkdirSync(outDir, { recursive: true });
const spansFd = openSync(join(outDir, 'spans.jsonl'), 'w');
const rows = [];
const now = () => performance.timeOrigin + performance.now();
const hex = (bytes) => randomBytes(bytes).toString('hex');

function span(trace, parent, name, kind, attributes, start) {
  const end = now();
  return {
    trace_id: trace,
    span_id: hex(8),
    parent_id: parent,
    name,
    kind,
    status: 'unset',
    start_ms: start,
    end_ms: end,
    duration_ms: end - start,
    attributes,
    ended: true,
  };
}

function runScenario(file, scenario) {
  const t0 = performance.now();
  const trace = hex(16);
  const rootId = hex(8);
  const rootStart = now();
  const spans = [];
  const messages = [...scenario.inputs.messages];
  let callId = 0;
  let output = '';
  const calls = [];
  for (const [turn, step] of scenario.model.script.entries()) {
    const chatStart = now();
    const assistant = { role: 'assistant', content: step.text ?? '' };
    if (step.tool_calls) assistant.tool_calls = step.tool_calls.map((call) => ({ tool_call_id: `call_${++callId}`, tool_name: call.name, input: call.args }));
    spans.push(
      span(
        trace,
        rootId,
        `chat ${agent.llm.model}`,
        'client',
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'scripted',
          'gen_ai.request.model': agent.llm.model,
          'agentcheck.turn': turn,
          'gen_ai.input.messages': JSON.stringify(messages),
          'gen_ai.response.model': agent.llm.model,
          'gen_ai.response.finish_reasons': [step.tool_calls ? 'tool_calls' : 'stop'],
          'gen_ai.usage.input_tokens': 4,
          'gen_ai.usage.output_tokens': 30,
          'gen_ai.response.id': `scripted-${turn + 1}`,
          'gen_ai.output.messages': JSON.stringify([assistant]),
        },
        chatStart,
      ),
    );
    messages.push(assistant);
    if (!step.tool_calls) {
      output = step.text;
      break;
    }
    for (const call of assistant.tool_calls) {
      const toolStart = now();
      const tool = tools.get(call.tool_name);
      const result = JSON.stringify(tool.returns);
      spans.push(
        span(
          trace,
          rootId,
          `execute_tool ${call.tool_name}`,
          'internal',
          {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': call.tool_name,
            'gen_ai.tool.call.id': call.tool_call_id,
            'gen_ai.tool.type': 'function',
            'gen_ai.tool.call.arguments': JSON.stringify(call.input),
            'gen_ai.tool.call.result': result,
            'agentcheck.tool.kind': 'returns',
            'agentcheck.tool.read_only': Boolean(tool.read_only),
            'agentcheck.tool.permission': 'allow',
            'agentcheck.tool.outcome': 'ok',
            'agentcheck.tool.attempts': 1,
            'agentcheck.tool.result_bytes': result.length,
            'agentcheck.turn': turn,
          },
          toolStart,
        ),
      );
      calls.push({ name: call.tool_name, args: call.input, span: spans[spans.length - 1].span_id });
      messages.push({ role: 'tool', tool_call_id: call.tool_call_id, tool_name: call.tool_name, content: result, is_error: false });
    }
  }
  const root = span(
    trace,
    null,
    `invoke_agent ${agent.name}`,
    'internal',
    {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': agent.name,
      'gen_ai.conversation.id': randomUUID(),
      'agentcheck.run_kind': 'test',
      'gen_ai.provider.name': 'scripted',
      'agentcheck.resolved_config': resolved,
      'agentcheck.skills.delivered': [],
      'agentcheck.stop_reason': 'end_turn',
      'agentcheck.output': output,
      'gen_ai.usage.input_tokens': 43,
      'gen_ai.usage.output_tokens': 56,
    },
    rootStart,
  );
  root.span_id = rootId;
  spans.unshift(root);
  let text = '';
  for (const record of spans) text += `${JSON.stringify(record)}\n`;
  writeSync(spansFd, text);
  // The 3 checks, read from the spans as the verdicts read them.
  const [called, order, out] = scenario.expect.checks;
  const toolCalls = spans
    .filter((s) => s.name.startsWith('execute_tool '))
    .map((s) => ({ name: s.attributes['gen_ai.tool.name'], args: JSON.parse(s.attributes['gen_ai.tool.call.arguments']), span: s.span_id }));
  const matching = toolCalls.filter((c) => c.name === called.tool_called.tool && Object.entries(called.tool_called.args).every(([k, v]) => c.args[k] === v));
  const firstAfter = toolCalls.findIndex((c) => c.name === order.tool_order.after);
  const before = order.tool_order.before.map((name) => toolCalls.findIndex((c) => c.name === name));
  const checks = [
    {
      id: 'tool_called#0',
      kind: 'tool_called',
      status: matching.length ? 'pass' : 'fail',
      reason: `${called.tool_called.tool} was called once with matching arguments (expected at least 1)`,
      evidence: matching.map((c) => c.span),
    },
    {
      id: 'tool_order#1',
      kind: 'tool_order',
      status: before.every((i) => i >= 0 && i < firstAfter) ? 'pass' : 'fail',
      reason: `${order.tool_order.before.join(', ')} all ran before the first ${order.tool_order.after} (call ${firstAfter + 1})`,
      evidence: [...before, firstAfter].map((i) => toolCalls[i]?.span),
    },
    {
      id: 'output#2',
      kind: 'output',
      status: root.attributes['agentcheck.output'].includes(out.output.contains) ? 'pass' : 'fail',
      reason: `output contains ${JSON.stringify(out.output.contains)}`,
      evidence: [rootId],
    },
  ];
  const terminal = toolCalls.some((c) => c.name === scenario.expect.terminal_tool);
  const pass = terminal && checks.every((c) => c.status === 'pass');
  rows.push({
    id: `${file}#${scenario.name}`,
    name: scenario.name,
    file: join(suiteDir, file),
    variant: 'base',
    repeat: 0,
    tags: [],
    status: pass ? 'pass' : 'fail',
    reason: '',
    test_run: {
      output,
      tools: [...new Set(toolCalls.map((c) => c.name))].map((name) => ({ name, called: 1, returned: 1, errors: 0 })),
      approvals: [],
      resolved: JSON.parse(resolved),
      trace_id: trace,
      stop_reason: 'end_turn',
      verdict: terminal ? 'pass' : 'fail',
      verdict_reason: `terminal tool ${scenario.expect.terminal_tool} was called and returned a result`,
    },
    checks,
    turns: spans.filter((s) => s.kind === 'client').length,
    duration_ms: Math.round((performance.now() - t0) * 100) / 100,
    error: null,
    expected_tools: [scenario.expect.terminal_tool, called.tool_called.tool],
    usage: { input_tokens: 43, output_tokens: 56 },
    transcript: messages,
  });
}

for (const file of readdirSync(suiteDir)
  .filter((name) => name.endsWith('.scenarios.yaml'))
  .sort()) {
  const doc = yaml.load(readFileSync(join(suiteDir, file), 'utf8'));
  for (const scenario of doc.scenarios) runScenario(file, scenario);
}
closeSync(spansFd);
const passed = rows.filter((row) => row.status === 'pass').length;
const report = {
  schema: 'agentcheck.report/1',
  started_at: started.toISOString(),
  duration_ms: Date.now() - started.getTime(),
  interrupted: false,
  suite: {
    paths: [suiteDir],
    config: null,
    variants: ['base'],
    repeat: 1,
    concurrency: 8,
    shard: null,
    grep: null,
    harness: 'agentcheck/0.1.0',
    content: hex(8),
    fingerprint: hex(8),
  },
  summary: { total: rows.length, passed, failed: rows.length - passed, errored: 0, not_run: 0, skipped: 0 },
  scenarios: rows,
  stats: {
    schema: 'agentcheck.stats/1',
    base: 'base',
    variants: { base: { runs: rows.length, passed } },
    scenarios: Object.fromEntries(rows.map((row) => [row.id, { base: { runs: 1, passed: row.status === 'pass' ? 1 : 0 } }])),
  },
};
writeFileSync(join(outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
if (passed !== rows.length) {
  console.error(`floor: ${rows.length - passed} of ${rows.length} scenarios did not pass`);
  process.exitCode = 1;
}
