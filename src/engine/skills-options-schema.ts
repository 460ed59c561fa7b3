/** Skill delivery options (docs/skills.md), in the suite config, a scenario (an agentcheck extension, docs/formats.md), testRun and invoke. */
export const skillsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    forced: { type: 'array', items: { type: 'string', minLength: 1 } },
    overlay: { type: 'array', items: { type: 'string', minLength: 1 } },
    delivery: { enum: ['inline', 'on_demand'] },
  },
} as const;
