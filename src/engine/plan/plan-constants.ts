import { RunError } from '../../config/errors.js';
import { interpolate } from '../template/interpolate.js';
import type { PlanScope } from './plan-scope.js';

/**
 * Resolves a plan's `constants` in order into `scope` (docs/workflows.md, STEP plans): each may use the ones
 * before it (and the plan's arguments); naming itself or a later one is an error, because the
 * result would depend on an order nobody wrote down.
 */
export function resolveConstants(constants: Readonly<Record<string, unknown>>, scope: PlanScope): void {
  const names = Object.keys(constants);
  names.forEach((name, index) => {
    const pending = new Set(names.slice(index));
    const where = `constants.${name}`;
    const value = interpolate(
      constants[name],
      (variable) => {
        if (pending.has(variable)) throw forwardReference(name, variable);
        return scope.find(variable);
      },
      where,
    );
    scope.bind(name, value);
  });
}

/** The error for `{{ later }}` inside an earlier constant. */
export function forwardReference(constant: string, variable: string): RunError {
  const why =
    constant === variable
      ? 'a constant cannot refer to itself'
      : `"${variable}" is defined after "${constant}"; constants are resolved in order, so move "${variable}" above "${constant}"`;
  return new RunError('PLAN_FORWARD_REFERENCE', `constant "${constant}" refers to "${variable}" at constants.${constant}: ${why}`);
}
