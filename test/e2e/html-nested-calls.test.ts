import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { tags } from '../runner/reporters/html-scan.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

// An external agent whose own spans hold a call of stray inside its call of lookup.
const EXTERNAL_AGENT = `import { request } from 'node:http';
process.stdin.resume();
await new Promise((done) => process.stdin.on('end', done));
const [, traceId, parentId] = process.env.TRACEPARENT.split('-');
const now = String(BigInt(Date.now()) * 1000000n);
const span = (id, parent, name) => ({ traceId, spanId: id, parentSpanId: parent, name, startTimeUnixNano: now, endTimeUnixNano: now, attributes: [
  { key: 'openinference.span.kind', value: { stringValue: 'TOOL' } },
  { key: 'tool.name', value: { stringValue: name } },
  { key: 'input.value', value: { stringValue: '{}' } },
  { key: 'output.value', value: { stringValue: '{"ok":true}' } },
] });
const body = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ scope: { name: 'x' }, spans: [span('1111111111111111', parentId, 'lookup'), span('2222222222222222', '1111111111111111', 'stray')] }] }] });
await new Promise((done) => request(process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => res.resume().on('end', done)).end(body));
process.stdout.write('done');
`;

const noParams = 'parameters: {type: object, properties: {}}';

describe('report.html timelines mark the wrong calls the statistics count (built CLI)', () => {
  it('marks a model call of an unexpected tool, never one a chain made or one nested in another call', async () => {
    const dir = tempDir({
      // The model calls combo (a chain calling audit, then lookup) and then stray; only lookup is expected.
      'bot.yaml': `id: bot
agent:
  name: Bot
  tools:
    - {name: lookup, description: l, ${noParams}, returns: {ok: true}}
    - {name: audit, description: a, ${noParams}, returns: {ok: true}}
    - {name: stray, description: s, ${noParams}, returns: {ok: true}}
    - {name: combo, description: c, ${noParams}, chain: {steps: [{tool: audit}, {tool: lookup}]}}
`,
      'chain.scenario.yaml': `name: chain
agent: bot.yaml
inputs: {messages: [{role: user, content: x}]}
model: {script: [{tool_calls: [{name: combo, args: {}}]}, {tool_calls: [{name: stray, args: {}}]}, {text: done}]}
expect: {checks: [{tool_called: {tool: lookup, nested: true}}]}
`,
      'agent.mjs': EXTERNAL_AGENT,
      'external.yaml': `id: ext\nexternal:\n  command: [node, ./agent.mjs]\n  tools:\n    - {name: lookup, ${noParams}}\n    - {name: stray, ${noParams}}\n`,
      'external.scenario.yaml': `name: external
agent: external.yaml
inputs: {messages: [{role: user, content: x}]}
model: {script: [{text: unused}]}
expect: {checks: [{tool_called: {tool: lookup}}]}
`,
    });
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json,html'], dir);
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    const barsOf = (name: string) => {
      const row = report.scenarios.find((r) => r.name === name)!;
      const lane = tags(html).find((tag) => tag.attrs.class === 'lane' && tag.attrs['data-trace-id'] === row.test_run!.trace_id)!;
      const svg = html.slice(lane.index, html.indexOf('</svg>', lane.index));
      return tags(svg)
        .filter((tag) => tag.name === 'rect' && tag.attrs['data-tool'])
        .map((bar) => `${bar.attrs['data-tool']}${bar.attrs['data-nested'] ? ' nested' : ''}${bar.attrs['data-wrong'] ? ' wrong' : ''}`)
        .sort(); // Bars go by start time, which ties at whole milliseconds.
    };
    expect(barsOf('chain')).toEqual(['audit nested', 'combo wrong', 'lookup nested', 'stray wrong']);
    expect(barsOf('external')).toEqual(['lookup', 'stray nested']);
    // The same calls the statistics count as wrong: combo and stray of the chain run, none of the external one.
    const wrong = (name: string) => report.scenarios.filter((r) => r.name === name).map((r) => r.test_run!.tools.map((t) => t.name));
    expect(wrong('chain')).toEqual([['combo', 'stray']]);
    expect(wrong('external')).toEqual([['lookup']]);
    expect(report.stats!.variants.base.tool_selection.wrong_tool_calls.total).toBe(2);
  }, 60_000);
});
