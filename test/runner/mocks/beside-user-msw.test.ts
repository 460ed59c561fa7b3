import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import type { ScenarioRow } from '../../../src/runner/report/report.js';
import { tempDir } from '../../helpers/temp-dir.js';

// agentcheck/vitest runs scenarios inside the user's test process, where the user's own msw server
// may come and go (a server per file, or per test). Scenario mocks must keep answering throughout,
// and a run's requests never reach the user's server (here it fails any request it has no handler for).

const files = {
  'agent.yaml': `id: gh
agent:
  name: GH
  llm: {provider: scripted, model: s}
  tools:
    - name: issues
      description: List issues.
      parameters: {type: object, properties: {}, additionalProperties: false}
      http: {url: "https://api.github.test/issues"}
`,
  'x.scenario.yaml': `name: mocked
agent: agent.yaml
inputs: {messages: [{role: user, content: list}]}
mocks: {http: [{method: GET, url: "https://api.github.test/issues", json: [{number: 7}]}]}
model: {script: [{tool_calls: [{name: issues, args: {}}]}, {text: done}]}
expect: {terminal_tool: issues, checks: [{tool_returned: {tool: issues, result: [{number: 7}]}}]}
`,
};

// Two calls; the first answer waits 1.5 s, so anything done 100 ms into the run happens before the
// second request, however slow the machine.
const twoCalls = `name: two calls
agent: agent.yaml
inputs: {messages: [{role: user, content: list}]}
mocks: {http: [{method: GET, url: "https://api.github.test/issues", responses: [{delay_ms: 1500, json: [{number: 1}]}, {json: [{number: 2}]}]}]}
model: {script: [{tool_calls: [{name: issues, args: {}}]}, {tool_calls: [{name: issues, args: {}}]}, {text: done}]}
expect: {checks: [{tool_returned: {tool: issues, result: [{number: 2}]}}, {no_tool_errors: {}}]}
`;

/** Runs the mocked scenario (or `scenario`) once. */
async function runMocked(scenarioText = files['x.scenario.yaml']): Promise<ScenarioRow> {
  const dir = tempDir({ ...files, 'x.scenario.yaml': scenarioText });
  const [scenario] = loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() });
  return runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
}

const userHandler = http.get('https://user.test/ping', () => HttpResponse.json({ pong: true }));

describe("scenario mocks beside the user's own msw server", () => {
  it('keep answering when the server closes, or a stubbed fetch is put back, while a run is in flight', async () => {
    const userServer = setupServer(userHandler);
    userServer.listen({ onUnhandledRequest: 'error' });
    const running = runMocked(twoCalls);
    setTimeout(() => userServer.close(), 100);
    // Before, the second request went out live after the close (getaddrinfo ENOTFOUND).
    expect(await running).toMatchObject({ status: 'pass', error: null });

    const original = globalThis.fetch;
    globalThis.fetch = (() => Promise.reject(new Error('the stub answers nothing'))) as typeof fetch;
    const stubbed = runMocked(twoCalls);
    setTimeout(() => {
      globalThis.fetch = original;
    }, 100);
    try {
      expect(await stubbed).toMatchObject({ status: 'pass', error: null });
    } finally {
      globalThis.fetch = original;
    }
  });

  it('keep answering after the server that was listening when they started closes', async () => {
    const userServer = setupServer(userHandler);
    userServer.listen({ onUnhandledRequest: 'error' });
    expect((await runMocked()).status).toBe('pass');
    userServer.close();

    // Before, the mocks rode on the closed server's interceptor: the request went out live.
    const row = await runMocked();
    expect({ status: row.status, error: row.error }).toEqual({ status: 'pass', error: null });

    // A server the user starts next works as before, and so do the mocks.
    const nextServer = setupServer(userHandler);
    nextServer.listen({ onUnhandledRequest: 'error' });
    try {
      expect(await (await fetch('https://user.test/ping')).json()).toEqual({ pong: true });
      expect((await runMocked()).status).toBe('pass');
    } finally {
      nextServer.close();
    }
    expect((await runMocked()).status).toBe('pass');
  });
});
