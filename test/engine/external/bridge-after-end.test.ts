import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invoke } from '../../../src/engine/invoke.js';
import { ScriptedModel } from '../../../src/engine/providers/scripted.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { tempDir } from '../../helpers/temp-dir.js';

const ask = `(content) => fetch(process.env.OPENAI_BASE_URL + '/chat/completions', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content }] }),
})`;

/** Asks the bridge twice whatever it answers, then answers with what it got: an agent that swallows model errors. */
const CARRIES_ON = `
require('node:fs').readFileSync(0, 'utf8');
const ask = ${ask};
(async () => {
  const statuses = [];
  for (const content of ['one', 'two']) statuses.push((await ask(content)).status);
  process.stdout.write(JSON.stringify({ output: 'statuses ' + statuses.join(',') }));
})();
`;

/** Asks the bridge once and exits 1 when it answers an error. */
const FAILS_ON_ERROR = `
require('node:fs').readFileSync(0, 'utf8');
const ask = ${ask};
(async () => {
  const response = await ask('one');
  if (response.status !== 200) {
    console.error('model call failed: ' + response.status);
    process.exit(1);
  }
  process.stdout.write('answered');
})();
`;

/** Ignores SIGTERM and asks the bridge once more when it comes, writing the answer's status down. */
const ASKS_LATE = `
const fs = require('node:fs');
fs.readFileSync(0, 'utf8');
const ask = ${ask};
process.on('SIGTERM', async () => {
  const response = await ask('late').catch((error) => ({ status: 'failed ' + error.message }));
  fs.writeFileSync(process.env.STATUS_FILE, String(response.status));
});
setInterval(() => {}, 1000);
`;

describe('the model bridge after the agent should have stopped asking', () => {
  it('an exhausted script errors the run even when the agent carries on and answers (never a pass)', async () => {
    const dir = tempDir({ 'agent.cjs': CARRIES_ON });
    const { tracer } = installTracing();
    const revision = revisionFromValue({ id: 'ext', external: { command: [process.execPath, join(dir, 'agent.cjs')] } });
    const turn = await invoke(
      revision,
      { messages: [{ role: 'user', content: 'hi' }] },
      { model: new ScriptedModel([{ text: 'only one' }]), tracer, env: { PATH: process.env.PATH } },
    );
    expect(turn.output).toBe('statuses 200,400');
    expect(turn.stop_reason).toBe('error');
    expect(turn.error).toMatchObject({ type: 'SCRIPT_EXHAUSTED', message: expect.stringContaining('the agent went on and answered') });
  });

  it('a missing script errors the run SCRIPT_MISSING, whether the agent carries on and answers or fails on the refusal', async () => {
    const dir = tempDir({ 'agent.cjs': CARRIES_ON, 'fails.cjs': FAILS_ON_ERROR });
    const { tracer } = installTracing();
    // No model given: the build's scripted model, with no script (as a scenario without model.script).
    const run = (file: string) =>
      invoke(
        revisionFromValue({ id: 'ext', external: { command: [process.execPath, join(dir, file)] } }),
        { messages: [{ role: 'user', content: 'hi' }] },
        { tracer, env: { PATH: process.env.PATH } },
      );
    const carried = await run('agent.cjs');
    expect(carried.output).toBe('statuses 400,400');
    expect(carried.stop_reason).toBe('error');
    expect(carried.error).toMatchObject({ type: 'SCRIPT_MISSING', message: expect.stringContaining('needs a script') });
    expect(carried.error?.message).toContain('the agent went on and answered');
    const failed = await run('fails.cjs');
    expect(failed.stop_reason).toBe('error');
    expect(failed.error).toMatchObject({ type: 'SCRIPT_MISSING', message: expect.stringContaining('the agent then failed') });
  });

  it("refuses a model call made after the agent's own timeout_ms ended it", async () => {
    const dir = tempDir({ 'agent.cjs': ASKS_LATE });
    const statusFile = join(dir, 'status');
    const { tracer } = installTracing();
    const revision = revisionFromValue({
      id: 'ext',
      // Long enough for node to start and install its SIGTERM handler on a loaded machine (node
      // resets signal dispositions at start, so the handler cannot be in place any sooner).
      external: { command: [process.execPath, join(dir, 'agent.cjs')], timeout_ms: 5000, env: { STATUS_FILE: statusFile } },
    });
    const turn = await invoke(
      revision,
      { messages: [{ role: 'user', content: 'hi' }] },
      { model: new ScriptedModel([{ text: 'late answer' }]), tracer, env: { PATH: process.env.PATH } },
    );
    expect(turn.error?.type).toBe('EXTERNAL_AGENT_TIMEOUT');
    // The late call came between SIGTERM and the SIGKILL 2 s later, while the bridge was still up.
    expect(readFileSync(statusFile, 'utf8')).toBe('400');
  });
});
