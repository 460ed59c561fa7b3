import { resolve } from 'node:path';
import { ConfigError, ConfigErrors, inLineOrder } from '../../config/errors.js';
import { RealFileSet } from '../files/real-file-set.js';

/** The kinds of file `agentcheck validate` knows. */
export type FileKind = 'scenario' | 'agent' | 'skill' | 'config';

/** One invalid file: where (as far as known) and the error that says what was expected. */
export interface ValidationProblem {
  file: string;
  line?: number;
  column?: number;
  path?: string;
  message: string;
  /** The error itself, for callers that print it their own way. */
  error: unknown;
}

/** What validateFiles checked and what it found. */
export interface ValidationReport {
  counts: Record<FileKind, number>;
  /** Scenarios inside the valid scenario files. */
  scenarios: number;
  problems: ValidationProblem[];
}

/**
 * The finished report: its problems in line order, as `run` prints the same problems (a suite
 * config's own problems and its variants' are found apart); the config count, the configs
 * checked that no problem points at; and the agent build count, the builds that loaded, named
 * or used by a scenario file, each real file once (it replaces the count check() keeps, which
 * knows only the builds named).
 */
export function finishReport(report: ValidationReport, configs: ReadonlySet<string>, builds: ReadonlySet<string>, cwd: string): ValidationReport {
  report.problems = inLineOrder(report.problems);
  const withProblems = new Set(report.problems.map((problem) => resolve(cwd, problem.file)));
  report.counts.config = [...configs].filter((file) => !withProblems.has(file)).length;
  const real = new RealFileSet();
  report.counts.agent = [...builds].filter((file) => real.add(resolve(cwd, file))).length;
  return report;
}

/**
 * The skill count: each skill folder that loaded while validating, each real folder once, wherever
 * it was reached from (a SKILL.md found under the paths, a build's ref, a config's or a scenario's
 * skills); it replaces the count check() keeps, which knows only the SKILL.md files found.
 */
export function countSkills(report: ValidationReport, folders: ReadonlySet<string>): ValidationReport {
  const real = new RealFileSet();
  report.counts.skill = [...folders].filter((folder) => real.add(folder)).length;
  return report;
}

/** Runs one file's check: counts the file when valid, records every problem when not. */
export function check(report: ValidationReport, file: string, kind: FileKind, step: () => void): void {
  try {
    step();
    report.counts[kind]++;
  } catch (error) {
    addProblems(report, toProblems(error, file));
  }
}

/**
 * Records problems not reported yet: a scenario file whose agent build is invalid fails with the
 * build's own problems, which the build's check (or another scenario file using it) already listed.
 * A ConfigError's message holds its file, line, column and path; with the file it is the key.
 */
export function addProblems(report: ValidationReport, problems: readonly ValidationProblem[]): void {
  const key = (problem: ValidationProblem) => `${problem.file}\n${problem.message}`;
  const seen = reported.get(report) ?? new Set(report.problems.map(key));
  reported.set(report, seen);
  for (const problem of problems) {
    if (seen.has(key(problem))) continue;
    seen.add(key(problem));
    report.problems.push(problem);
  }
}

/** The messages each report holds, so a long list is not searched for every new problem. */
const reported = new WeakMap<ValidationReport, Set<string>>();

/** Every problem an error holds: each of a ConfigErrors, else the error itself. */
export function toProblems(error: unknown, file: string): ValidationProblem[] {
  return error instanceof ConfigErrors ? error.errors.map((one) => toProblem(one, file)) : [toProblem(error, file)];
}

/** A ConfigError keeps its location; any other error is pinned to the file being checked. */
export function toProblem(error: unknown, file: string): ValidationProblem {
  if (error instanceof ConfigError) {
    return { file: error.file, line: error.line, column: error.column, path: error.path, message: error.message, error };
  }
  return { file, message: error instanceof Error ? error.message : String(error), error };
}
