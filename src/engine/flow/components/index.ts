import type { ComponentType } from '../../revision/types.js';
import { runAgentComponent } from './agent-component.js';
import type { ComponentRunner } from './component.js';
import { runDeterministicStep } from './deterministic-step.js';
import { runHumanInput } from './human-input.js';
import { runPlanComponent } from './plan-component.js';

/** Component type -> runner (docs/workflows.md, Flows). An `end` component does nothing: reaching it ends the flow. */
export const COMPONENT_RUNNERS: Readonly<Record<ComponentType, ComponentRunner>> = {
  agent: runAgentComponent,
  deterministic_step: runDeterministicStep,
  human_input: runHumanInput,
  plan: runPlanComponent,
  end: async () => ({ kind: 'done' }),
};
