import { ConfigErrors } from '../../../src/config/errors.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { tempDir } from '../../helpers/temp-dir.js';

const AGENT = `id: shop
agent:
  name: Shop
  llm: {provider: scripted, model: s}
  tools:
    - name: create_refund
      description: Refund.
      parameters: {type: object, properties: {order_id: {type: string}, reason: {type: string}}, additionalProperties: false}
      http:
        method: POST
        url: "https://shop.test/orders/{{ args.order_id }}/refunds?api_key=sk-live-0123456789"
        headers: {Authorization: "Bearer tok-abcdefghijkl", X-Client: agentcheck}
        body: {reason: "{{ args.reason }}", note: "sent with tok-abcdefghijkl"}
`;

function scenarioFiles(checks: string): Record<string, string> {
  return {
    'agent.yaml': AGENT,
    'x.scenario.yaml': `name: refund
agent: agent.yaml
inputs: {messages: [{role: user, content: refund}]}
mocks: {http: [{method: POST, url: "https://shop.test/orders/*/refunds*", json: {ok: true}}]}
model: {script: [{tool_calls: [{name: create_refund, args: {order_id: "42", reason: damaged}}]}, {text: done}]}
expect:
  checks:
${checks}`,
  };
}

async function run(checks: string) {
  const dir = tempDir(scenarioFiles(checks));
  const [scenario] = loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() });
  return { row: await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 }) };
}

describe('the request an http tool sent is evidence', () => {
  it('tool_called.request asserts method, URL, headers and JSON body; secrets are scrubbed on the span', async () => {
    const { row } = await run(`    - tool_called:
        tool: create_refund
        request:
          method: post
          url: {$regex: "^https://shop\\\\.test/orders/42/refunds\\\\?api_key=\\\\[redacted\\\\]$"}
          headers: {authorization: "[redacted]", x-client: agentcheck, Content-Type: application/json}
          json: {reason: damaged, note: "sent with [redacted]"}
    - spans: {query: {filtering: {operator: and, conditions: [{field: attributes, key: agentcheck.http.request.body, operator: contains, value: damaged}, {field: attributes, key: http.response.status_code, operator: eq, value: 200}]}}, count: {min: 1, max: 1}}
`);
    expect(row.checks.map((check) => [check.status, check.reason])).toEqual([
      ['pass', 'create_refund was called once with matching request (expected at least 1)'],
      ['pass', expect.any(String)],
    ]);
    expect(JSON.stringify(row)).not.toContain('tok-abcdefghijkl');
    expect(JSON.stringify(row)).not.toContain('sk-live-0123456789');
  });

  it('a request that differs fails with the difference', async () => {
    const { row } = await run(`    - tool_called: {tool: create_refund, request: {json: {reason: late}}}
    - tool_called: {tool: create_refund, args: {reason: damaged}, request: {method: PUT}}
`);
    expect(row.checks.map((check) => check.reason)).toEqual([
      'expected create_refund to be called at least once with matching request; saw create_refund x1; closest: create_refund call 1: request json at reason: expected "late", got "damaged"',
      'expected create_refund to be called at least once with matching arguments and request; saw create_refund x1; closest: create_refund call 1: request method POST, expected PUT',
    ]);
  });

  it('a difference where the request holds [redacted] says secrets are compared as [redacted] and how to write them', async () => {
    const { row } = await run(`    - tool_called: {tool: create_refund, request: {headers: {authorization: "Bearer tok-abcdefghijkl"}}}
    - tool_called: {tool: create_refund, request: {headers: {Authorization: {$regex: "^Bearer "}}}}
    - tool_called: {tool: create_refund, request: {json: {note: "sent with tok-abcdefghijkl"}}}
    - tool_called: {tool: create_refund, request: {url: "https://shop.test/orders/42/refunds?api_key=sk-live-0123456789"}}
    - tool_called: {tool: create_refund, request: {headers: {x-client: other}, json: {reason: late}}}
`);
    const hint = "the run's secrets are compared as [redacted], never as their values";
    const header = `; ${hint} ("a secret one reads [redacted]", docs/verdicts.md): write "[redacted]" where the secret goes (authorization: "[redacted]"), or {$any: true} for a header that need only be there`;
    const other = `; ${hint} (docs/verdicts.md): write "[redacted]" where the secret goes`;
    const closest = 'expected create_refund to be called at least once with matching request; saw create_refund x1; closest: create_refund call 1: request';
    expect(row.checks.map((check) => check.reason)).toEqual([
      `${closest} at headers.authorization: expected "Bearer tok-abcdefghijkl", got "[redacted]"${header}`,
      `${closest} at headers.authorization: expected a string matching /^Bearer /, got "[redacted]"${header}`,
      `${closest} json at note: expected "sent with tok-abcdefghijkl", got "sent with [redacted]"${other}`,
      `${closest} at url: expected "https://shop.test/orders/42/refunds?api_key=sk-live-0123456789", got "https://shop.test/orders/42/refunds?api_key=[redacted]"${other}`,
      // A difference in no secret's place has no hint.
      `${closest} at headers.x-client: expected "other", got "agentcheck"`,
    ]);
  });

  it('headers is a mapping of names to values or matchers ($any: true for presence); a list of names is refused', async () => {
    const { row } = await run(`    - tool_called: {tool: create_refund, request: {headers: {X-CLIENT: {$any: true}}}}
    - tool_called: {tool: create_refund, request: {headers: {x-missing: {$any: true}}}}
`);
    expect(row.checks.map((check) => check.status)).toEqual(['pass', 'fail']);
    const dir = tempDir(scenarioFiles('    - tool_called: {tool: create_refund, request: {headers: [authorization, x-client]}}\n'));
    const error = configErrorOf(() => loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() }));
    expect(error.path).toBe('expect.checks[0].tool_called.request.headers');
    expect(error.message).toMatch(/expected object, got an array/);
  });

  it('an invalid matcher in request is a load error, located', () => {
    const dir = tempDir(scenarioFiles('    - tool_called: {tool: create_refund, request: {url: {$regex: "(a+)+"}}}\n'));
    const error = configErrorOf(() => loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() }));
    expect(error.path).toBe('expect.checks[0].tool_called.request.url.$regex');
  });

  it('a method no tool sends and every bad matcher of a request are refused together', () => {
    const dir = tempDir(scenarioFiles('    - tool_called: {tool: create_refund, request: {method: FETCH, url: {$regex: "(a+)+"}, json: {a: {$regexx: 1}}}}\n'));
    const error = configErrorOf(() => loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() }));
    const paths = (error instanceof ConfigErrors ? error.errors : [error]).map((one) => one.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'expect.checks[0].tool_called.request.method',
        'expect.checks[0].tool_called.request.url.$regex',
        'expect.checks[0].tool_called.request.json.a.$regexx',
      ]),
    );
  });
});
