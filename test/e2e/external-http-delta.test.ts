import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDelta } from '../../src/engine/revision/delta.js';
import { loadAgentBuild } from '../../src/engine/revision/load-build.js';
import type { Report } from '../../src/runner/report/report.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

/** An http agent that answers with the config, delta and deltas it was sent. */
const ECHO = `import http from 'node:http';
http.createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  const sent = body ? JSON.parse(body) : {};
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ output: JSON.stringify({ config: sent.config, delta: sent.delta, deltas: sent.deltas }) }));
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

describe('an http engine under a scenario delta and a variant', () => {
  it('is sent a merged delta that, applied to the build file, gives the build that ran (a value removed, then set again)', async () => {
    const dir = tempDir({
      'echo.mjs': ECHO,
      'e.yaml': 'id: e\nexternal:\n  http: {url: "http://127.0.0.1:{port}/", start: {command: [node, ./echo.mjs]}}\n  config: {units: celsius, lang: en}\n',
      'd.scenario.yaml': 'name: d\nagent: e.yaml\ndelta: {remove: [external.config.units]}\ninputs: {messages: [{role: user, content: hi}]}\n',
      'agentcheck.config.yaml': 'variants: {v1: {set: {external: {config: {units: kelvin}}}}}\n',
    });
    const result = await runCli(['run', 'd.scenario.yaml', '--variant', 'v1', '--reporter', 'json', '--out', 'out'], dir);
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    const sent = JSON.parse(report.scenarios[0].test_run?.output ?? '') as { config: unknown; delta: unknown; deltas: unknown[] };
    expect(sent.config).toEqual({ units: 'kelvin', lang: 'en' });
    expect(sent.deltas).toEqual([{ remove: ['external.config.units'] }, { set: { external: { config: { units: 'kelvin' } } } }]);
    // Before, the removes were joined: {set: {...units: kelvin}, remove: [external.config.units]}, which removes units.
    expect(sent.delta).toEqual({ set: { external: { config: { units: 'kelvin' } } } });
    expect(applyDelta(loadAgentBuild(join(dir, 'e.yaml')), sent.delta).build.external?.config).toEqual(sent.config);
  }, 60_000);
});
