// @ts-check
/**
 * Re-records scenarios/toolsets/cassettes from the simulated model, from the repository root:
 *
 *   npm run build && node scripts/simulated-model/record-toolsets.mjs
 *
 * It starts the simulator on 127.0.0.1:8787 (the URL in the suite config, which is part of every
 * recorded request), deletes the old cassettes (so renamed scenarios leave no stale folders),
 * runs the suite with --cassettes record --concurrency 1 (one run at a time, so repeat r is the
 * simulator's sample r and a re-recording writes the same files), and stops the simulator.
 * The run exits 1 because the base variant fails some scenarios by design; only 2 is an error.
 */
import { recordSuiteCassettes } from './record-cassettes.mjs';
import { startSimulatedModel } from './server.mjs';

const sim = await startSimulatedModel({ port: 8787 });
let status = 2;
try {
  status = await recordSuiteCassettes({ suite: 'scenarios/toolsets', out: 'reports/toolsets-record' });
} finally {
  await sim.close();
}
process.exitCode = status === 2 ? 2 : 0;
