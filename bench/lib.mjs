// Shared helpers for the benchmarks: timing whole commands, medians, machine facts.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'dist/bin/agentcheck.js');

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// /usr/bin/time's last line: peak RSS (KB), user and system CPU seconds.
const TIME_FORMAT = ['-f', '%M %U %S'];

function parseTime(stderr) {
  const lines = (stderr ?? '').trim().split('\n');
  const [rssKb, user, sys] = lines[lines.length - 1].split(' ').map(Number);
  return { rssMb: rssKb / 1024, cpu: user + sys };
}

/** Runs a command once under /usr/bin/time: wall seconds, CPU seconds (user + system), peak RSS in MB, exit code. */
export function timeCommand(command, args, options = {}) {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', [...TIME_FORMAT, command, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  const wall = (performance.now() - started) / 1000;
  return { wall, ...parseTime(result.stderr), status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** timeCommand without blocking the event loop (when this process also serves the command). */
export function timeCommandAsync(command, args, options = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/time', [...TIME_FORMAT, command, ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => {
      resolve({ wall: (performance.now() - started) / 1000, ...parseTime(stderr), status, stdout, stderr });
    });
  });
}

/** Cores, memory, CPU model and Node version, for every figure's context. */
export function machine() {
  const cpu = cpus();
  return {
    cores: cpu.length,
    cpu: cpu[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
}

/** Builds the CLI once so every benchmark measures the current sources. */
export function ensureBuilt() {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}

/** Runs `fn` `runs` times and returns the list of results. */
export function repeat(runs, fn) {
  return Array.from({ length: runs }, (_, i) => fn(i));
}

/** Formats seconds or milliseconds with sensible precision. */
export function fmt(value, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}
