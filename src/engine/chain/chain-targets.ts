import { RunError } from '../../config/errors.js';
import type { ChainStepSpec } from '../revision/types.js';

/** `next: end` ends the chain (a reserved name: no step id may be `end`). */
export const CHAIN_END = 'end';

/**
 * Resolves a step's `next` (docs/workflows.md, Tool chains): a step `id` first, else the first step whose
 * `tool` matches. Load validation already refuses names that resolve to nothing.
 */
export class ChainTargets {
  private readonly byName = new Map<string, number>();

  constructor(private readonly steps: readonly ChainStepSpec[]) {
    // Tools first, then ids over them: an id wins when a name is both.
    steps.forEach((step, index) => {
      if (!this.byName.has(step.tool)) this.byName.set(step.tool, index);
    });
    steps.forEach((step, index) => {
      if (step.id !== undefined) this.byName.set(step.id, index);
    });
  }

  /** The index of the step `next` names; `end` is one past the last step, which ends the chain. */
  resolve(next: string, from: string): number {
    if (next === CHAIN_END) return this.steps.length;
    const index = this.byName.get(next);
    if (index === undefined) throw new RunError('CHAIN_UNKNOWN_STEP', `${from}: "next" names no step: "${next}"`);
    return index;
  }
}

/** The label of a step in spans, records and errors: its id, else its position. */
export function stepLabel(step: ChainStepSpec, index: number): string {
  return step.id ?? `steps[${index}]`;
}
