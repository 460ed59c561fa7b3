import { expect } from 'vitest';
import { toHaveCalledTool, toHaveCalledToolsInOrder, toHaveVerdict, toPass } from './matchers.js';

/** The matchers in the shape `expect.extend` takes. */
export const agentcheckMatchers = {
  toPass: (received: unknown) => toPass(received),
  toHaveVerdict: (received: unknown, verdict: string) => toHaveVerdict(received, verdict),
  toHaveCalledTool: (received: unknown, name: string, args?: Record<string, unknown>) => toHaveCalledTool(received, name, args),
  toHaveCalledToolsInOrder: (received: unknown, names: readonly string[]) => toHaveCalledToolsInOrder(received, names),
};

/** The agentcheck matchers' types on vitest's `expect(...)`. */
export interface AgentcheckMatchers<R = unknown> {
  /** A ScenarioRow with status pass, or a TestRunResult with verdict pass. */
  toPass(): R;
  /** The test_run verdict: pass, incomplete, unconfirmed or failed. */
  toHaveVerdict(verdict: 'pass' | 'incomplete' | 'unconfirmed' | 'failed'): R;
  /** Some call of the tool (or /regex/) whose arguments include `args` (superset match). */
  toHaveCalledTool(name: string, args?: Record<string, unknown>): R;
  /** The tools' first calls happen in this order (other tools may come between). */
  toHaveCalledToolsInOrder(names: readonly string[]): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- must match vitest's own declaration to merge
  interface Matchers<T = any> extends AgentcheckMatchers<T> {}
}

let installed = false;

/** Adds the matchers to vitest's `expect` (idempotent); importing agentcheck/vitest calls it. */
export function installMatchers(): void {
  if (installed) return;
  installed = true;
  expect.extend(agentcheckMatchers);
}

// Importing the entry is enough to use the matchers, as with @testing-library/jest-dom/vitest.
installMatchers();
