// Cold starts against `node -e ''` on the same machine in the same session: `test-run --json`
// with a script (the README's example run), `validate FILE` and `--help`. Runs alternate
// between the command and node, so load changes hit both alike.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT } from './generate-suite.mjs';
import { CLI, median, ROOT, timeCommand } from './lib.mjs';

const SCRIPT = `- tool_calls: [{name: lookup_order, args: {order_id: "1"}}, {name: check_stock, args: {sku: S1}}]
- tool_calls: [{name: create_refund, args: {order_id: "1", reason: damaged}}]
- text: Refund created.
`;

/** The commands timed, with their targets (times `node -e ''`); `dir` holds the bench agent and script. */
function coldCommands(dir) {
  const fixture = (path) => join(ROOT, path);
  return [
    // One scenario of the bench suite as a single run: the bench agent (tools with fixed results) and its 3-step script.
    {
      name: 'test-run --json (script)',
      target: 2.5,
      args: [
        'test-run',
        '--agent',
        join(dir, 'agent.yaml'),
        '--message',
        'Refund order 1',
        '--script',
        join(dir, 'script.yaml'),
        '--terminal-tool',
        'create_refund',
        '--json',
      ],
    },
    { name: 'validate FILE', target: 2, args: ['validate', fixture('fixtures/agents/support-bot.yaml')] },
    { name: '--help', target: 1.5, args: ['--help'] },
    // Not a target: the README's example, whose --mocks load msw for HTTP interception.
    {
      name: 'test-run --json (script and --mocks, README example)',
      target: null,
      args: [
        'test-run',
        '--agent',
        fixture('fixtures/agents/support-bot.yaml'),
        '--message',
        'Refund order 1234, it arrived broken.',
        '--script',
        fixture('fixtures/test-run/refund-script.yaml'),
        '--mocks',
        fixture('fixtures/test-run/refund-mocks.yaml'),
        '--terminal-tool',
        'create_refund',
        '--json',
      ],
    },
  ];
}

/** Median wall and CPU of `runs` fresh processes per command and of `node -e ''`, and their ratios. */
export function benchColdStart({ runs = 10 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'agentcheck-bench-cold-'));
  try {
    writeFileSync(join(dir, 'agent.yaml'), AGENT);
    writeFileSync(join(dir, 'script.yaml'), SCRIPT);
    return measure(coldCommands(dir), runs, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function measure(commands, runs, dir) {
  const node = [];
  const results = commands.map((command) => ({ ...command, walls: [], cpus: [] }));
  for (let i = 0; i < runs; i++) {
    node.push(timeCommand('node', ['-e', '']));
    for (const command of results) {
      const result = timeCommand('node', [CLI, ...command.args]);
      if (result.status !== 0) throw new Error(`${command.name} exited ${result.status}: ${result.stderr.slice(-400)}`);
      command.walls.push(result.wall);
      command.cpus.push(result.cpu);
    }
  }
  const nodeWall = median(node.map((r) => r.wall));
  const nodeCpu = median(node.map((r) => r.cpu));
  return {
    runs,
    node: { wall_ms: nodeWall * 1000, cpu_ms: nodeCpu * 1000, command: "node -e ''" },
    commands: results.map(({ name, target, args, walls, cpus }) => ({
      name,
      target,
      wall_ms: median(walls) * 1000,
      cpu_ms: median(cpus) * 1000,
      ratio_wall: median(walls) / nodeWall,
      ratio_cpu: median(cpus) / nodeCpu,
      command: `node dist/bin/agentcheck.js ${args
        .map((a) => a.replace(`${ROOT}/`, '').replace(`${dir}/`, '<dir>/'))
        .map((a) => (/\s/.test(a) ? `"${a}"` : a))
        .join(' ')}`,
    })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(benchColdStart(), null, 2));
