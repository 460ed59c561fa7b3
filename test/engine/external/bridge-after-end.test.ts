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

  it("refuses a model call made after the agent's own timeout_ms ended it", async () => {
    const dir = tempDir({ 'agent.cjs': ASKS_LATE });
    const statusFile = join(dir, 'status');
    const { tracer } = installTracing();
    const revision = revisionFromValue({
      id: 'ext',
      external: { command: [process.execPath, join(dir, 'agent.cjs')], timeout_ms: 1000, env: { STATUS_FILE: statusFile } },
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
