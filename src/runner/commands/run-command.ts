import { setMaxListeners } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { HARNESS } from '../../engine/resolve-config.js';
import type { OtlpExport } from '../../spans/otlp-export.js';
import { resolveOtlpTarget } from '../../spans/otlp-target.js';
import { installTracing } from '../../spans/tracing.js';
import { resolveCassetteSettings, type CassetteSettings } from '../cassettes/cassette-settings.js';
import { createProgress } from '../progress/progress.js';
import { summarize, type Report } from '../report/report.js';
import { SpansFile } from '../report/spans-file.js';
import { suiteFingerprint } from '../report/suite-fingerprint.js';
import { createReporters } from '../reporters/index.js';
import { computeStats } from '../stats/compute-stats.js';
import { loadSuite } from '../suite/load-suite.js';
import { loadCustomChecks } from '../checks/load-custom-checks.js';
import { runSuite } from '../suite/run-suite.js';
import { folderConfig, loadSuiteConfig, REPORTER_NAMES, type ReporterName, type SuiteConfig } from '../suite/suite-config.js';
import { shardFromEnv } from '../ci/shard-from-env.js';
import { runCiReporters } from './ci-reporters.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';

export interface RunOptions {
  config?: string;
  variant?: string[];
  repeat?: number;
  concurrency?: number;
  grep?: string;
  tag?: string[];
  reporter?: string;
  out?: string;
  shard?: { index: number; total: number };
  timeout?: number;
  overlay?: string[];
  cassettes?: string;
  /** OTLP/HTTP endpoint to export spans to (else OTEL_EXPORTER_OTLP_* decide). */
  otlp?: string;
}

/** Default scenarios run at once: scripted runs are CPU-light, real models are latency-bound. */
const DEFAULT_CONCURRENCY = 8;

/** `agentcheck run`: load and validate everything, run, always write the reports. */
export async function runCommand(paths: string[], options: RunOptions, io: CommandIO): Promise<number> {
  const startedAt = new Date();
  const started = performance.now();
  let plan;
  let config;
  let reporterNames: ReporterName[];
  let cassettes: CassetteSettings;
  try {
    // `run DIR` with DIR/agentcheck.config.yaml runs that suite as its config describes it.
    const ownConfig = options.config ? undefined : folderConfig(paths, io.cwd);
    config = loadSuiteConfig(options.config ?? ownConfig, io.cwd);
    reporterNames = parseReporters(options.reporter, config.reporters);
    cassettes = resolveCassetteSettings(options.cassettes, config.cassettes, config.baseDir);
    const scenarioPaths = ownConfig ? [] : paths;
    if (!options.shard) {
      const fromEnv = shardFromEnv(io.env);
      if (fromEnv) {
        options = { ...options, shard: { index: fromEnv.index, total: fromEnv.total } };
        io.stderr.write(`agentcheck: running shard ${fromEnv.index}/${fromEnv.total} (from ${fromEnv.source}; --shard overrides)\n`);
      }
    }
    plan = loadSuite({ paths: scenarioPaths, config, variants: options.variant, repeat: options.repeat, grep: options.grep, tags: options.tag, shard: options.shard }, io.cwd);
    // Custom check modules are imported and checked before anything runs, like the rest of the input.
    await loadCustomChecks(plan.scenarios);
  } catch (error) {
    return reportError(error, io);
  }
  if (!plan.runs.length && options.shard && suiteHasRuns(paths, options, config, io.cwd)) {
    // More shards than scenarios: this shard's empty report still tells `agentcheck merge` it ran.
    io.stderr.write(`agentcheck: shard ${options.shard.index}/${options.shard.total} has no scenarios; writing an empty report\n`);
  } else if (!plan.runs.length) {
    io.stderr.write(`agentcheck: no scenarios to run${options.grep ? ` matching "${options.grep}"` : ''} (scenario files are named *.scenario.yaml or *.scenarios.yaml)\n`);
    return EXIT.invalidInput;
  }

  let otlp: OtlpExport | null = null;
  try {
    // The exporter and its dependencies load only when export is asked for.
    const target = resolveOtlpTarget(options.otlp, io.env);
    if (target) otlp = (await import('../../spans/otlp-export.js')).attachOtlpExport(target, installTracing().store);
  } catch (error) {
    return reportError(error, io);
  }

  const out = resolve(io.cwd, options.out ?? config.out ?? 'reports');
  let spansFile: SpansFile;
  try {
    mkdirSync(out, { recursive: true });
    spansFile = new SpansFile(join(out, 'spans.jsonl'));
  } catch (error) {
    return reportError(new ConfigError({ file: options.out ?? out }, `cannot write reports there: ${(error as Error).message}; expected a folder agentcheck may create and write`, 'OUT_NOT_WRITABLE'), io);
  }

  const controller = new AbortController();
  const interrupt = () => controller.abort(new Error('interrupted'));
  // `on`, not `once`: a listener that removes itself before running lets execa's signal-exit
  // believe it is alone and re-raise the signal, killing the process before the report is written.
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  // Every running scenario listens to this signal; at --concurrency 1000 that is no leak.
  setMaxListeners(0, controller.signal);
  const concurrency = options.concurrency ?? config.concurrency ?? DEFAULT_CONCURRENCY;
  const progress = createProgress(io.stderr, io.isTTY, plan.runs.length);
  let rows;
  try {
    rows = await runSuite(plan.runs, {
      concurrency,
      timeoutMs: options.timeout ?? config.timeout_ms,
      skills: {
        forced: config.skills.forced,
        overlay: [...config.skills.overlay, ...(options.overlay ?? []).map((p) => resolve(io.cwd, p))],
        delivery: config.skills.delivery,
      },
      env: io.env,
      cassettes,
      signal: controller.signal,
      onRowDone: (row, done, total) => progress.update(row, done, total),
      onSpans: (spans) => spansFile.write(spans),
    });
  } finally {
    process.removeListener('SIGINT', interrupt);
    process.removeListener('SIGTERM', interrupt);
    progress.finish();
    spansFile.close();
  }

  const report: Report = {
    schema: 'agentcheck.report/1',
    started_at: startedAt.toISOString(),
    duration_ms: Math.round(performance.now() - started),
    interrupted: controller.signal.aborted,
    suite: {
      paths,
      config: config.file,
      variants: plan.variants,
      repeat: plan.repeat,
      concurrency,
      shard: options.shard ?? null,
      grep: options.grep ?? null,
      harness: HARNESS,
      content: plan.contentHash,
      fingerprint: suiteFingerprint({ paths, config: config.file, variants: plan.variants, repeat: plan.repeat, grep: options.grep, tags: options.tag, overlay: options.overlay, harness: HARNESS, cwd: io.cwd, content: plan.contentHash }),
    },
    summary: summarize(rows),
    scenarios: rows,
  };
  report.stats = computeStats(report);
  for (const reporter of createReporters(reporterNames)) {
    try {
      await reporter.onRunEnd(report, { out, stdout: io.stdout, color: io.isTTY && !io.env.NO_COLOR });
    } catch (error) {
      io.stderr.write(`agentcheck: the ${reporter.name} reporter failed: ${(error as Error).message}\n`);
    }
  }
  await runCiReporters(report, out, io);
  // After the reports: a slow or dead collector must not hold them back, nor change the exit code.
  const otlpWarning = await otlp?.finish();
  if (otlpWarning) io.stderr.write(`${otlpWarning}\n`);
  const { summary } = report;
  return summary.failed + summary.errored + summary.not_run === 0 ? EXIT.ok : EXIT.failed;
}

/** Whether the whole suite, unsharded, has runs (so an empty shard is a small suite, not a wrong path). */
function suiteHasRuns(paths: string[], options: RunOptions, config: SuiteConfig, cwd: string): boolean {
  return loadSuite({ paths, config, variants: options.variant, repeat: options.repeat, grep: options.grep, tags: options.tag }, cwd).runs.length > 0;
}

function parseReporters(flag: string | undefined, fromConfig: ReporterName[] | undefined): ReporterName[] {
  if (!flag) return fromConfig ?? ['table', 'json'];
  const names = flag.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
      throw new ConfigError({ file: '--reporter' }, `unknown reporter "${name}"; expected a comma list of ${REPORTER_NAMES.join(', ')}`);
    }
  }
  return names as ReporterName[];
}
