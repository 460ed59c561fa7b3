import { quoteCapped } from '../../config/cap-text.js';
import { ConfigError } from '../../config/errors.js';
import type { Reporter } from './reporter.js';

export type { Reporter, ReporterContext, RowAccess, WholeRows } from './reporter.js';

/**
 * Reporter name -> factory. A map only; adding a reporter is its own file plus one line here.
 * Factories import their module on demand, so a reporter nobody asked for costs no start-up time.
 * The suite config schema, `--reporter` checks and the CLI help all list these keys.
 */
export const REPORTERS = {
  table: async () => new (await import('./table-reporter.js')).TableReporter(),
  json: async () => new (await import('./json-reporter.js')).JsonReporter(),
  md: async () => new (await import('./md-reporter.js')).MdReporter(),
  junit: async () => new (await import('./junit-reporter.js')).JunitReporter(),
  html: async () => new (await import('./html-reporter.js')).HtmlReporter(),
} as const satisfies Record<string, () => Promise<Reporter>>;

/** A registered reporter's name. */
export type ReporterName = keyof typeof REPORTERS;

/** The reporter names, in registry order. */
export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

/**
 * Checks `names` against the registry: every unknown name (and an empty one) is said in one
 * ConfigError listing the known ones, `--reporter: unknown reporters "xml", "yaml"; expected one of: ...`.
 */
export function checkReporterNames(names: readonly string[], where = '--reporter'): asserts names is readonly ReporterName[] {
  const unknown = [...new Set(names.filter((name) => name !== '' && !Object.hasOwn(REPORTERS, name)))];
  const empty = names.includes('');
  if (!unknown.length && !empty) return;
  const what = [
    ...(unknown.length ? [`unknown reporter${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => quoteCapped(name)).join(', ')}`] : []),
    ...(empty ? ['an empty reporter name (check the comma list)'] : []),
  ].join(' and ');
  throw new ConfigError({ file: where }, `${what}; expected one of: ${REPORTER_NAMES.join(', ')}`, 'CONFIG_INVALID');
}

/** New reporters for `names`, in order and without duplicates; an unknown name is a ConfigError. */
export async function createReporters(names: readonly string[]): Promise<Reporter[]> {
  checkReporterNames(names);
  const unique = [...new Set(names)];
  return Promise.all(unique.map((name) => REPORTERS[name]()));
}
