import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import type { ScenarioRow } from '../../../src/runner/report/report.js';
import { encodingHint } from '../../../src/runner/mocks/encoding-hint.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A build with one http tool `issues` whose url is `url`. */
function githubAgent(url: string): string {
  return `id: gh
agent:
  name: GH
  llm: {provider: scripted, model: s}
  tools:
    - name: issues
      description: List issues.
      parameters: {type: object, properties: {repo: {type: string}}, additionalProperties: false}
      http: {url: "${url}"}
`;
}

/** Runs the single scenario of `scenario` (YAML) next to the files given. */
async function runOne(files: Record<string, string>): Promise<ScenarioRow> {
  const dir = tempDir(files);
  const [scenario] = loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() });
  return runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0 });
}

const listIssues = (repo: string) => `model: {script: [{tool_calls: [{name: issues, args: {repo: "${repo}"}}]}, {text: done}]}`;

describe('URL encoding and mocks', () => {
  it('a {{ args.repo | path }} url reaches the mock written with "/"', async () => {
    const row = await runOne({
      'agent.yaml': githubAgent('https://api.github.test/repos/{{ args.repo | path }}/issues'),
      'x.scenario.yaml': `name: path
agent: agent.yaml
inputs: {messages: [{role: user, content: list}]}
mocks: {http: [{method: GET, url: "https://api.github.test/repos/octo/hello/issues", json: [{number: 1}]}]}
${listIssues('octo/hello')}
expect: {terminal_tool: issues, checks: [{tool_returned: {tool: issues, result: [{number: 1}]}}]}
`,
    });
    expect({ status: row.status, reason: row.reason }).toEqual({ status: 'pass', reason: expect.any(String) });
  });

  it('the unmatched-request error says when only the encoding differs, and how to keep "/"', async () => {
    const row = await runOne({
      'agent.yaml': githubAgent('https://api.github.test/repos/{{ args.repo }}/issues'),
      'x.scenario.yaml': `name: encoded
agent: agent.yaml
inputs: {messages: [{role: user, content: list}]}
mocks: {http: [{method: GET, url: "https://api.github.test/repos/octo/hello/issues", json: []}]}
${listIssues('octo/hello')}
`,
    });
    expect(row.error).toEqual({
      type: 'UNMATCHED_REQUEST',
      message:
        'no mock matched GET https://api.github.test/repos/octo%2Fhello/issues (did you mean the mock "https://api.github.test/repos/octo/hello/issues"? ' +
        'it differs only in percent-encoding: the URL has %2F where the mock has /; to keep "/" in a path value, write {{ args.<name> | path }} in the tool\'s url) (scenario mocks.http)',
    });
  });
});

describe('a mock of the URL for another method', () => {
  it('is named in the unmatched-request error', async () => {
    const row = await runOne({
      'agent.yaml': githubAgent('https://api.github.test/repos/{{ args.repo | path }}/issues'),
      'x.scenario.yaml': `name: method
agent: agent.yaml
inputs: {messages: [{role: user, content: list}]}
mocks: {http: [{method: post, url: "https://api.github.test/repos/octo/hello/issues", json: []}]}
${listIssues('octo/hello')}
`,
    });
    expect(row.error).toEqual({
      type: 'UNMATCHED_REQUEST',
      message: 'no mock matched GET https://api.github.test/repos/octo/hello/issues (mocks.http[0] has this URL, but for POST, not GET) (scenario mocks.http)',
    });
  });
});

describe('a model call no mock answers', () => {
  it('makes the row UNMATCHED_REQUEST (the model error it causes is its symptom), listed once', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: oa\nagent:\n  name: OA\n  llm: {provider: openai, model: gpt-4.1-mini, base_url: "https://llm.test/v1"}\n',
      'x.scenario.yaml': `name: miss
agent: agent.yaml
inputs: {messages: [{role: user, content: hi}]}
mocks: {http: [{method: POST, url: "https://llm.test/v1/chat/completions", match: {json: {model: gpt-5}}, json: {}}]}
`,
    });
    const [scenario] = loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() });
    // No key in the run's environment: the placeholder stands in, and never leaves.
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0, env: { PATH: process.env.PATH } });
    expect(row.error).toEqual({
      type: 'UNMATCHED_REQUEST',
      message:
        'no mock matched POST https://llm.test/v1/chat/completions (mocks.http[0] has this route, but its match json: at model: expected "gpt-5", got "gpt-4.1-mini") (scenario mocks.http)',
    });
  });
});

describe('encodingHint', () => {
  it('names the differing escapes both ways, honours wildcards and methods, and is empty otherwise', () => {
    expect(encodingHint([{ url: 'https://a.test/x%20y/*' }], 'GET', 'https://a.test/x y/z')).toBe(
      ' (did you mean the mock "https://a.test/x%20y/*"? it differs only in percent-encoding: the mock has %20 where the URL has " ")',
    );
    // A "/" encoded in the query: `| path` is refused there, so the advice is about the mock.
    expect(encodingHint([{ url: 'https://api.test/search?q=a/*' }], 'GET', 'https://api.test/search?q=a%2Fb')).toBe(
      ' (did you mean the mock "https://api.test/search?q=a/*"? it differs only in percent-encoding: the URL has %2F where the mock has /; in a query value "/" is sent as %2F: write %2F in the mock\'s url)',
    );
    expect(encodingHint([{ method: 'POST', url: 'https://a.test/o/r' }], 'GET', 'https://a.test/o%2Fr')).toBe('');
    expect(encodingHint([{ url: 'https://a.test/o/s' }], 'GET', 'https://a.test/o%2Fr')).toBe('');
  });
});
