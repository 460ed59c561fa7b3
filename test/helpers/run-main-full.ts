import { runMain, type MainResult } from './run-main.js';

/** What a run in the test process could leave behind that runMain does not compare. */
interface RunState {
  env: string;
  globals: string[];
  fetch: typeof fetch;
  resources: string[];
}

/**
 * Globals a run may add for good: OpenTelemetry's API registry, where installTracing
 * (src/spans/tracing.ts) sets agentcheck's tracer provider once per process, as every in-process
 * run of the other tests does; and the dispatcher Node's own fetch makes at its first use in a
 * process (agentcheck never sets one). Connections it leaves open are still active handles.
 */
const LASTING = new Set(['Symbol(opentelemetry.js.api.1)', 'Symbol(undici.globalDispatcher.1)']);

function runState(): RunState {
  return {
    env: JSON.stringify(Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : 1))),
    globals: [...Object.getOwnPropertyNames(globalThis), ...Object.getOwnPropertySymbols(globalThis).map(String)].sort(),
    fetch: globalThis.fetch,
    resources: process.getActiveResourcesInfo().sort(),
  };
}

/** The multiset difference a - b of two sorted lists, as "name xN". */
function extra(a: string[], b: string[]): string[] {
  const counts = new Map<string, number>();
  for (const item of a) counts.set(item, (counts.get(item) ?? 0) + 1);
  for (const item of b) counts.set(item, (counts.get(item) ?? 0) - 1);
  return [...counts].filter(([, count]) => count > 0).map(([item, count]) => `${item} x${count}`);
}

/**
 * runMain for a whole run (exit 0 or 1: scenarios run, reports written), for a case whose point
 * is the run's logic (which scenarios a selection picks, what the terminal report says) rather
 * than the process: a process of the built CLI costs about 0.25 s of CPU, most of it starting
 * Node and the bundle. Besides runMain's own checks (signal and exit listeners, exitCode, exit,
 * cwd), throws when the run left the environment, a global (fetch, as an HTTP mock patches it)
 * or an active handle or timer changed: such a run belongs on the built CLI (runCli). Keep at
 * least one case of each command and outcome on the built CLI, in each file that uses this.
 */
export async function runMainFull(args: string[], cwd: string, env: Record<string, string> = {}): Promise<MainResult> {
  const before = runState();
  const result = await runMain(args, cwd, env);
  // A handle closed in the run's last callback is released at the next turn of the loop.
  await new Promise((resolve) => setImmediate(resolve));
  const after = runState();
  const said: string[] = [];
  if (after.env !== before.env) said.push('process.env');
  const globals = [...extra(after.globals, before.globals), ...extra(before.globals, after.globals)].filter((name) => !LASTING.has(name.replace(/ x\d+$/, '')));
  if (globals.length) said.push(`globals ${globals.join(', ')}`);
  if (after.fetch !== before.fetch) said.push('fetch replaced');
  const resources = extra(after.resources, before.resources);
  if (resources.length) said.push(`active ${resources.join(', ')} left`);
  if (said.length) throw new Error(`runMainFull: main(${JSON.stringify(args)}) left the process changed (${said.join('; ')}): test this case with runCli`);
  return result;
}
