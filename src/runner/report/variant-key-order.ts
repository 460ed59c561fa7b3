import type { Report } from './report.js';

/*
 * report.json keeps the suite's variant order in the objects keyed by variant name
 * (suite.variant_deltas, stats.variants, stats.scenarios[id]; docs/statistics.md). A JavaScript
 * object cannot hold it when a name is integer-like (`2`, `10`): such keys always come first. So
 * those fields are written with their keys put back in order, and JSON.stringify's text otherwise.
 */

/** A name JavaScript orders before the other keys of an object: an array index. */
function isIndexLike(name: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(name) && Number(name) < 2 ** 32 - 1;
}

/**
 * The text of report field `key` as `JSON.stringify(value, null, 2)` gives it, but with the keys
 * of its variant-keyed objects in the suite's variant order; undefined for a value without a JSON form.
 */
export function reportFieldJson(report: Readonly<Report>, key: string, value: unknown): string | undefined {
  const variants = report.suite?.variants;
  if ((key !== 'suite' && key !== 'stats') || !Array.isArray(variants) || !variants.some(isIndexLike)) {
    return JSON.stringify(value, null, 2) as string | undefined;
  }
  const byVariant = new Set<unknown>();
  if (key === 'suite') byVariant.add(report.suite.variant_deltas);
  else if (report.stats) {
    byVariant.add(report.stats.variants);
    for (const outcomes of Object.values(report.stats.scenarios ?? {})) byVariant.add(outcomes);
  }
  const rank = new Map(variants.map((name, index) => [name, index]));
  const order = (object: object): string[] => {
    const keys = Object.keys(object);
    if (!byVariant.has(object)) return keys;
    // Names the suite does not list (a hand-edited report) keep their place after the others.
    return keys
      .map((name, index) => ({ name, at: rank.get(name) ?? variants.length + index }))
      .sort((a, b) => a.at - b.at)
      .map((entry) => entry.name);
  };
  return stringify(value, '', order);
}

/** JSON.stringify(value, null, 2) with each object's keys in the order `order` gives. */
function stringify(given: unknown, indent: string, order: (object: object) => string[]): string | undefined {
  const value = hasToJson(given) ? given.toJSON() : given;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) as string | undefined;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return `[\n${value.map((item) => `${inner}${stringify(item, inner, order) ?? 'null'}`).join(',\n')}\n${indent}]`;
  }
  const fields = order(value).flatMap((name) => {
    const text = stringify((value as Record<string, unknown>)[name], inner, order);
    return text === undefined ? [] : [`${inner}${JSON.stringify(name)}: ${text}`];
  });
  return fields.length ? `{\n${fields.join(',\n')}\n${indent}}` : '{}';
}

function hasToJson(value: unknown): value is { toJSON: () => unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
