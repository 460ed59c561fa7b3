import { RunError } from '../../config/errors.js';
import type { FlowSpec } from '../revision/types.js';
import type { FlowState } from './flow-state.js';
import { missingKey, parseIOKey, readIOKey } from './io-key.js';

/** The route target that ends a flow (unless a component is named `end`). */
export const END = 'end';
/** The route key a conditional router falls back to when no other key matches the value (docs/workflows.md). */
export const DEFAULT_ROUTE = 'default_route';

/**
 * The component that runs after `from` (docs/workflows.md, Flows), or null when the flow ends. A
 * conditional router matches `String(value)` exactly against its routes, then takes
 * `default_route` (also for a missing optional input); with neither, the run errors.
 */
export function nextComponent(flow: FlowSpec, from: string, state: FlowState): string | null {
  const router = (flow.routers ?? []).find((candidate) => candidate.from === from);
  if (!router) throw new RunError('FLOW_NO_ROUTE', `component "${from}" has no router; add {from: ${from}, to: <component or end>}`);
  let target: string;
  if (router.condition) {
    const key = parseIOKey(router.condition.input);
    const read = readIOKey(state, key);
    if (!read.found && !key.optional) throw missingKey(key, `router from "${from}"`);
    const routes = router.condition.routes;
    // A missing optional value has no text to match (it is not the string "undefined"): default_route.
    const value = read.found ? String(read.value) : undefined;
    const matched = value !== undefined && Object.hasOwn(routes, value) ? routes[value] : routes[DEFAULT_ROUTE];
    if (matched === undefined) {
      const known = Object.keys(routes)
        .map((route) => `"${route}"`)
        .join(', ');
      const what =
        value === undefined ? 'is missing (optional), so only default_route can match' : `is "${value}", which matches none of the routes (${known})`;
      throw new RunError('FLOW_NO_ROUTE', `router from "${from}": ${key.text} ${what} and there is no default_route`);
    }
    target = matched;
  } else {
    target = router.to as string;
  }
  if (target === END && !flow.components.some((component) => component.name === END)) return null;
  return target;
}
