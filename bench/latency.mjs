// Latency-bound suite: a local OpenAI-compatible server on 127.0.0.1 answers every request
// after a fixed delay; N scenarios (one model call each) run at concurrency C, and the ideal
// N x latency / C is compared with the whole process's wall time (start-up, loading the suite,
// connections and writing the reports included) and, for reference, with report.json duration_ms.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, timeCommandAsync } from './lib.mjs';

/** Starts the stub model; resolves to {port, close, requests()}. */
export function startSlowModel(latencyMs) {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${requests}`,
            object: 'chat.completion',
            model: 'slow-model',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Done.' } }],
            usage: { prompt_tokens: 20, completion_tokens: 2 },
          }),
        );
      }, latencyMs);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        requests: () => requests,
        connections: () => connections,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

/** Writes N one-call scenarios against the stub model at `port`. */
function writeSuite(dir, count, port) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'agent.yaml'),
    `id: latency-bot
agent:
  name: Latency bot
  llm: {provider: openai, model: slow-model, base_url: "http://127.0.0.1:${port}/v1", max_retries: 0}
`,
  );
  const lines = ['defaults:', '  agent: agent.yaml', 'scenarios:'];
  for (let i = 0; i < count; i++) {
    lines.push(`  - name: call ${i}`, `    inputs: {messages: [{role: user, content: "hello ${i}"}]}`, '    expect: {checks: [{output: {contains: Done}}]}');
  }
  writeFileSync(join(dir, 'latency.scenarios.yaml'), `${lines.join('\n')}\n`);
}

/**
 * Runs the latency benchmark for each concurrency, `runs` times each (a fresh stub connection count
 * per run): the figures are those of the run with the median efficiency, with every run's listed.
 */
export async function benchLatency({ count = 640, latencyMs = 200, concurrencies = [64], runs = 5 } = {}) {
  const model = await startSlowModel(latencyMs);
  const dir = mkdtempSync(join(tmpdir(), 'agentcheck-bench-latency-'));
  try {
    writeSuite(join(dir, 'suite'), count, model.port);
    const results = [];
    for (const concurrency of concurrencies) {
      const measured = [];
      for (let run = 0; run < runs; run++)
        measured.push(await latencyRun(join(dir, `out-${concurrency}`), { count, latencyMs, concurrency, model, suite: join(dir, 'suite') }));
      // The run whose efficiency is the median: its wall, CPU and report figures belong together.
      const sorted = [...measured].sort((a, b) => a.efficiency - b.efficiency);
      results.push({ ...sorted[sorted.length >> 1], runs, all_efficiency: measured.map((m) => m.efficiency) });
    }
    return results;
  } finally {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One run of the latency suite at `concurrency`, checked to have passed every scenario. */
async function latencyRun(out, { count, latencyMs, concurrency, model, suite }) {
  const connectionsBefore = model.connections();
  const result = await timeCommandAsync('node', [CLI, 'run', suite, '--concurrency', String(concurrency), '--reporter', 'json', '--out', out]);
  if (result.status !== 0) throw new Error(`latency suite at concurrency ${concurrency} exited ${result.status}: ${result.stderr.slice(-400)}`);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  if (report.summary.passed !== count) throw new Error(`latency suite at concurrency ${concurrency}: ${report.summary.passed} of ${count} passed`);
  const idealS = (count * latencyMs) / concurrency / 1000;
  const runS = report.duration_ms / 1000;
  // Equal-length jobs run in ceil(N / C) waves: the best any scheduler can do.
  const wavesS = (Math.ceil(count / concurrency) * latencyMs) / 1000;
  return {
    concurrency,
    count,
    connections: model.connections() - connectionsBefore,
    latency_ms: latencyMs,
    passed: report.summary.passed,
    ideal_s: idealS,
    waves_s: wavesS,
    run_s: runS,
    wall_s: result.wall,
    cpu_s: result.cpu,
    efficiency: idealS / result.wall,
    efficiency_run: idealS / runS,
    efficiency_waves: wavesS / result.wall,
    command: `node dist/bin/agentcheck.js run <${count} one-call scenarios> --concurrency ${concurrency} --reporter json --out <dir>`,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchLatency(), null, 2));
