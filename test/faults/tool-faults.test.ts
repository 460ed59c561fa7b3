import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentLoop } from '../../src/engine/loop/agent-loop.js';
import { ScriptedModel } from '../../src/engine/providers/scripted.js';
import { createPromptSecurity } from '../../src/engine/security/prompt-security.js';
import { MAX_RESULT_CHARS, ToolCaller } from '../../src/engine/tools/tool-caller.js';
import type { Tool } from '../../src/engine/tools/tool.js';
import { FolderWorkspace } from '../../src/engine/workspace/folder-workspace.js';
import type { Report, ScenarioRow } from '../../src/runner/report/report.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { installTracing } from '../../src/spans/tracing.js';
import { runCli } from '../e2e/cli.js';
import { startLocalServer, type LocalServer } from '../helpers/openai-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const TEN_MB = 10 * 1024 * 1024;

/** A shell command line writing TEN_MB of `char` to stdout. */
const flood = (char: string) => `head -c ${TEN_MB} /dev/zero | tr -c ${char} ${char}`;

function customTool(name: string, execute: Tool['execute']): Tool {
  return { name, description: name, parameters: { type: 'object' }, readOnly: true, kind: 'returns', execute };
}

describe('tool faults in the call path (in process)', () => {
  it('turns whatever a tool throws into a tool error the model sees, and the loop goes on', async () => {
    const { tracer, store } = installTracing();
    const tools = new Map<string, Tool>([
      [
        'type_error',
        customTool('type_error', async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'x')");
        }),
      ],
      [
        'throws_string',
        customTool('throws_string', async () => {
          throw 'a bare string';
        }),
      ],
      ['rejects_late', customTool('rejects_late', () => new Promise((_resolve, reject) => setTimeout(() => reject(new RangeError('late failure')), 20)))],
      [
        'throws_sync',
        customTool('throws_sync', (() => {
          throw new Error('thrown before any promise');
        }) as unknown as Tool['execute']),
      ],
      [
        'cyclic',
        customTool('cyclic', async () => {
          const value: Record<string, unknown> = { big: 10n as unknown };
          value.self = value;
          return { result: value, isError: false };
        }),
      ],
    ]);
    const root = tracer.startSpan('fault root', {}, ROOT_CONTEXT);
    const parent = trace.setSpan(ROOT_CONTEXT, root);
    const workspace = FolderWorkspace.temp();
    const caller = new ToolCaller({
      tools,
      agent: { name: 'fault agent' },
      security: createPromptSecurity(),
      tracer,
      workspace,
      env: {},
    });
    const model = new ScriptedModel([{ tool_calls: [...tools.keys()].map((name) => ({ name, args: {} })) }, { text: 'recovered' }]);
    const result = await runAgentLoop(
      { model, system: '', tools: [], parameters: {}, caller, maxTurns: 4, tracer, parent },
      { messages: [{ role: 'user', content: 'go' }], turns: 0, usage: { input_tokens: 0, output_tokens: 0 } },
    );
    root.end();
    await workspace.dispose();

    expect(result.error).toBeUndefined();
    expect(result.stop_reason).toBe('end_turn');
    expect(result.output).toBe('recovered');
    const seen = model.requests[1].messages.filter((m) => m.role === 'tool');
    expect(seen.map((m) => [m.tool_name, m.is_error])).toEqual([
      ['type_error', true],
      ['throws_string', true],
      ['rejects_late', true],
      ['throws_sync', true],
      ['cyclic', false],
    ]);
    expect(seen[0].content).toContain('Cannot read properties of undefined');
    expect(seen[1].content).toBe('a bare string');
    expect(seen[2].content).toBe('late failure');
    expect(seen[3].content).toBe('thrown before any promise');
    // A cyclic value with a BigInt is serialised, not a stack overflow that ends the run.
    expect(seen[4].content).toBe('{"big":"10","self":"[Circular]"}');

    const spans = store.take(root.spanContext().traceId).filter((s) => s.name.startsWith('execute_tool '));
    expect(spans).toHaveLength(5);
    // The calls run concurrently, so spans end (and are stored) in any order: pick them by name.
    for (const span of spans.filter((s) => s.name !== 'execute_tool cyclic')) {
      expect(span.status, span.name).toBe('error');
      expect(span.attributes['error.type']).toBe('exception');
    }
    expect(spans.find((s) => s.name === 'execute_tool cyclic')?.status).not.toBe('error');
  });

  it('caps a 10 MB result before the model sees it, and the run continues', async () => {
    const { tracer, store } = installTracing();
    const tools = new Map<string, Tool>([['flood', customTool('flood', async () => ({ result: 'x'.repeat(TEN_MB), isError: false }))]]);
    const root = tracer.startSpan('flood root', {}, ROOT_CONTEXT);
    const workspace = FolderWorkspace.temp();
    const caller = new ToolCaller({ tools, agent: { name: 'a' }, security: createPromptSecurity(), tracer, workspace, env: {} });
    const model = new ScriptedModel([{ tool_calls: [{ name: 'flood', args: {} }] }, { text: 'fine' }]);
    const result = await runAgentLoop(
      { model, system: '', tools: [], parameters: {}, caller, maxTurns: 4, tracer, parent: trace.setSpan(ROOT_CONTEXT, root) },
      { messages: [{ role: 'user', content: 'go' }], turns: 0, usage: { input_tokens: 0, output_tokens: 0 } },
    );
    root.end();
    await workspace.dispose();
    expect(result.output).toBe('fine');
    const content = model.requests[1].messages[2].content;
    expect(content.length).toBeLessThan(MAX_RESULT_CHARS + 100);
    expect(content).toMatch(/\[truncated \d+ characters\]$/);
    const [span] = store.take(root.spanContext().traceId).filter((s) => s.name === 'execute_tool flood');
    expect(String(span.attributes['gen_ai.tool.call.result']).length).toBeLessThan(110_000);
  });
});

describe('tool faults through the built CLI', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({
      huge: (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('y'.repeat(TEN_MB)),
      stall: () => undefined,
      down: (_req, res) => res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"maintenance"}'),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ends each tool fault in a tool error in the row and the spans, never a crash', async () => {
    // The tools' processes are shells and coreutils: a fault is the process's, whatever the
    // program, and a shell starts in a fraction of the CPU a node process takes.
    const agent = `id: tool-faults
agent:
  name: Tool faults
  llm: {provider: scripted, model: s}
  commands: {allow: [sh, no-such-program-agentcheck]}
  tools:
    - {name: hangs, description: h, parameters: {type: object}, command: {argv: [sh, -c, "exec sleep 60"], timeout_ms: 300}}
    - {name: ignores_sigterm, description: h, parameters: {type: object}, command: {argv: [sh, -c, "trap '' TERM; exec sleep 60"], timeout_ms: 1000}}
    - {name: killed, description: k, parameters: {type: object}, command: {argv: [sh, -c, "kill -KILL $$"]}}
    - {name: crashes, description: c, parameters: {type: object}, command: {argv: [sh, -c, "echo 'tool blew up' >&2; exit 1"]}}
    - {name: missing_program, description: m, parameters: {type: object}, command: {argv: [no-such-program-agentcheck]}}
    - {name: floods, description: f, parameters: {type: object}, command: {argv: [sh, -c, "${flood('z')}"]}}
    - {name: http_huge, description: h, parameters: {type: object}, http: {url: "${server.origin}/huge"}}
    - {name: http_stall, description: s, parameters: {type: object}, http: {url: "${server.origin}/stall", timeout_ms: 300}}
    - {name: http_down, description: d, parameters: {type: object}, http: {url: "${server.origin}/down"}}
    - {name: http_bad_url, description: b, parameters: {type: object, properties: {host: {type: string}}}, http: {url: "{{ args.host }}"}}
    - {name: refused, description: r, parameters: {type: object}, http: {url: "http://127.0.0.1:9/nothing"}}
    - {name: edit, description: e, builtin: edit_file}
    - {name: shell, description: s, builtin: run_command}
`;
    const failing = ['hangs', 'ignores_sigterm', 'killed', 'crashes', 'missing_program', 'http_stall', 'http_down', 'refused'];
    const scenarios = [
      ...failing.map((tool) => ({ name: tool, calls: [{ name: tool, args: {} }], expect: '{verdict: failed}' })),
      { name: 'http_bad_url', calls: [{ name: 'http_bad_url', args: { host: 'not a url' } }], expect: '{verdict: failed}' },
      { name: 'edit', calls: [{ name: 'edit', args: { path: 'missing.txt', old: 'a', new: 'b' } }], expect: '{verdict: failed}' },
      {
        name: 'shell_flood',
        calls: [{ name: 'shell', args: { argv: ['sh', '-c', flood('q')] } }],
        expect: '{terminal_tool: shell}',
      },
      { name: 'shell_missing', calls: [{ name: 'shell', args: { argv: ['no-such-program-agentcheck'] } }], expect: '{verdict: failed}' },
      { name: 'floods', calls: [{ name: 'floods', args: {} }], expect: '{terminal_tool: floods}' },
      { name: 'http_huge', calls: [{ name: 'http_huge', args: {} }], expect: '{terminal_tool: http_huge}' },
    ];
    const suite = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
scenarios:
${scenarios
  .map(
    (s) => `  - name: ${s.name}
    model: {script: [{tool_calls: ${JSON.stringify(s.calls)}}, {text: done}]}
    expect: ${s.expect}
`,
  )
  .join('')}`;
    const dir = tempDir({ 'agent.yaml': agent, 'tools.scenarios.yaml': suite });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--out', out, '--reporter', 'json', '--concurrency', '16'], dir);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.scenarios).toHaveLength(scenarios.length);
    const failures = report.scenarios.filter((row) => row.status !== 'pass').map((row) => `${row.name}: ${row.reason}`);
    expect(failures).toEqual([]);
    expect(result.exitCode, result.all).toBe(0);

    const spans = readFileSync(join(out, 'spans.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as SpanRecord);
    const row = (name: string): ScenarioRow => report.scenarios.find((r) => r.name === name)!;
    const toolSpan = (name: string, tool: string): SpanRecord => {
      const span = spans.find((s) => s.trace_id === row(name).test_run?.trace_id && s.name === `execute_tool ${tool}`);
      if (!span) throw new Error(`no execute_tool ${tool} span for ${name}`);
      return span;
    };
    const expectedTypes: Record<string, string> = {
      hangs: 'timeout',
      ignores_sigterm: 'timeout',
      killed: 'signal',
      crashes: 'exit_1',
      missing_program: 'not_found',
      http_stall: 'timeout',
      http_down: 'http_503',
      refused: 'network',
      http_bad_url: 'invalid_url',
      edit: 'file_not_found',
    };
    for (const [name, type] of Object.entries(expectedTypes)) {
      const tool = name;
      expect(row(name).test_run?.tools, name).toEqual([{ name: tool, called: 1, returned: 0, errors: 1 }]);
      expect(row(name).test_run?.verdict_reason, name).toContain(tool);
      const span = toolSpan(name, tool);
      expect(span.status, name).toBe('error');
      expect(span.attributes['error.type'], name).toBe(type);
    }
    // run_command names a missing program as a command tool does.
    expect(toolSpan('shell_missing', 'shell').attributes['error.type']).toBe('not_found');
    expect(String(toolSpan('hangs', 'hangs').attributes['gen_ai.tool.call.result'])).toContain('timed out after 300 ms');
    expect(String(toolSpan('killed', 'killed').attributes['gen_ai.tool.call.result'])).toContain('SIGKILL');
    // The SIGTERM-proof process was force-killed after its timeout, not left running: the tool
    // settles only once the process has ended, and says it killed it. The process ignores SIGTERM
    // from the shell's first command on (sleep keeps an ignored signal across exec), not from a
    // handler it installs once started: a node script took over 200 ms to get there on a loaded
    // machine, and its timeout's SIGTERM came first.
    expect(String(toolSpan('ignores_sigterm', 'ignores_sigterm').attributes['gen_ai.tool.call.result'])).toContain('timed out after 1000 ms and was killed');

    // Floods are capped at each layer: 1 MB of command output, 64 KB for run_command, and
    // at most 100,000 characters on the span; the run goes on and passes.
    for (const [name, tool] of [
      ['floods', 'floods'],
      ['shell_flood', 'shell'],
      ['http_huge', 'http_huge'],
    ]) {
      expect(row(name).test_run?.verdict, name).toBe('pass');
      const attribute = String(toolSpan(name, tool).attributes['gen_ai.tool.call.result']);
      expect(attribute.length, name).toBeLessThan(110_000);
      expect(attribute, name).toMatch(/truncated/);
      // Cut inside its strings: still the result's JSON, so checks read the object back.
      expect(() => JSON.parse(attribute), name).not.toThrow();
    }
    expect(row('shell_flood').test_run?.tools[0]).toMatchObject({ errors: 0 });
  });
});
