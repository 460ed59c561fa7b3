/** `*.scenario.yaml`, `*.scenarios.yaml`, also `.yml` and `.json` (docs/formats.md, Scenario). */
export const SCENARIO_FILE = /\.scenarios?\.(ya?ml|json)$/;

/** `agentcheck.config.yaml` (also `.yml` and `.json`): a suite config, whatever it holds (docs/formats.md, Suite config). */
export const SUITE_CONFIG_FILE = /^agentcheck\.config\.(ya?ml|json)$/;

/** The names SUITE_CONFIG_FILE matches: those a folder's own suite config may have. */
export const SUITE_CONFIG_NAMES = ['agentcheck.config.yaml', 'agentcheck.config.yml', 'agentcheck.config.json'] as const;
