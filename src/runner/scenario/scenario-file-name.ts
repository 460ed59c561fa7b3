/** `*.scenario.yaml`, `*.scenarios.yaml`, also `.yml` and `.json` (docs/formats.md, Scenario). */
export const SCENARIO_FILE = /\.scenarios?\.(ya?ml|json)$/;
