import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { scenarioPathHint } from './relative-path-hint.js';
import type { FormatCheck, Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import { workspaceFolderProblem } from '../files/walk-files.js';
import type { ScenarioSpec } from './scenario-format.generated.js';
import { isSelectableName } from './selectable-name.js';
import { skillFolderProblems } from '../../skills/skill-folder-problems.js';

/**
 * An `expect_failure` on a scenario that expects nothing that could fail: it could only ever be an
 * "unexpected pass", so it is refused (docs/formats.md).
 */
export function expectFailureProblems(spec: ScenarioSpec, locate: Locator): ConfigError[] {
  const expect = spec.expect ?? {};
  if (spec.expect_failure === undefined || expect.terminal_tool !== undefined || expect.verdict !== undefined) return [];
  if (expect.checks?.length || spec.resume?.length) return [];
  return [
    locate(
      ['expect_failure'],
      'expects a failure, but the scenario expects nothing that could fail: add the checks (or terminal_tool, resume) it should fail',
      true,
    ),
  ];
}

/**
 * The problems of what a scenario names beside its build: tags `--tag` could never select, and
 * workspace and skill folders that are missing or are no skill; each one beside the others (one
 * pass, docs/cli.md), read only where `format` left the value valid.
 */
export function namedPlaceProblems(
  spec: ScenarioSpec,
  format: FormatCheck,
  dir: string,
  locate: Locator,
  checkedWorkspaces: Map<string, string | undefined> = new Map(),
): ConfigError[] {
  const problems: ConfigError[] = [];
  const ok = (...path: Array<string | number>) => format.valid(path);
  // --tag takes a comma list: a tag it could never select is refused, as variant names are.
  if (format.typed(['tags'])) {
    (spec.tags ?? []).forEach((tag, index) => {
      if (ok('tags', index) && !isSelectableName(tag)) {
        problems.push(
          locate(
            ['tags', index],
            `the tag ${JSON.stringify(tag)} cannot be selected with --tag: expected a non-empty tag without commas or surrounding spaces`,
          ),
        );
      }
    });
  }
  if (spec.workspace !== undefined && ok('workspace')) {
    const folder = resolve(dir, spec.workspace);
    // Walked once per load: the scenarios of a file mostly share their defaults' workspace.
    if (!checkedWorkspaces.has(folder)) checkedWorkspaces.set(folder, workspaceFolderProblem(folder));
    const problem = checkedWorkspaces.get(folder);
    // Only when it is missing: a file or a pseudo-file folder is found where it was meant.
    const hint = problem && !existsSync(folder) ? scenarioPathHint(spec.workspace, dir, 'folder') : '';
    if (problem) problems.push(locate(['workspace'], `${problem}${hint}`));
  }
  for (const key of ['forced', 'overlay'] as const) {
    if (!ok('skills', key)) continue;
    // A folder that is not a skill is invalid input: say so now, not in the middle of the run.
    (spec.skills?.[key] ?? []).forEach((path, i) =>
      problems.push(...skillFolderProblems(resolve(dir, path), (expected) => locate(['skills', key, i], expected))),
    );
  }
  return problems;
}
