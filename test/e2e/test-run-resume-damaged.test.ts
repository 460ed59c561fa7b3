import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oncePerKey, shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runMain, type MainResult } from '../helpers/run-main.js';
import { runCli } from './cli.js';
import { pause, SCRIPT } from './test-run-resume-fixture.js';

// A damaged checkpoint file is invalid input for `agentcheck resume` (docs/cli.md, test-run):
// exit 2 naming the file and the field, nothing run, the file kept; never a stack trace.
// Refused as the file is read, before the run is claimed: the damaged files run through the CLI's
// entry in-process (runMain), but for a damaged field ('tools and checkpoint') and a JSON syntax
// error, which the built CLI refuses.

type Refusal = MainResult | Awaited<ReturnType<typeof runCli>>;

const resume = (dir: string, runId: string, spans: string, built = false): Promise<Refusal> => {
  const args = ['resume', runId, '--decision', 'approve', '--spans', spans, '--json'];
  return built ? runCli(args, dir) : runMain(args, dir);
};

/**
 * One run paused at its gated write (--spans out/spans.jsonl); each test damages its own copy of
 * its runs folder, as a copied runs folder resumes in the copy (docs/cli.md, resume).
 */
const pausedRun = shared(async (dir) => {
  const root = dir({ 'script.yaml': SCRIPT });
  return { root, runId: await pause(root, ['--spans', 'out/spans.jsonl']) };
});

/** A folder of its own holding a copy of the paused run's runs folder as out/; its checkpoint is `file`. */
async function paused(): Promise<{ dir: string; runId: string; file: string }> {
  const { root, runId } = await pausedRun();
  const dir = tempDir();
  cpSync(join(root, 'out'), join(dir, 'out'), { recursive: true });
  return { dir, runId, file: join(dir, 'out', `${runId}.checkpoint.json`) };
}

function editCheckpoint(file: string, edit: (saved: Record<string, any>) => void): void {
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  edit(saved);
  writeFileSync(file, JSON.stringify(saved, null, 2));
}

/** Exit 2 with nothing on stdout, no stack trace, and the checkpoint kept. */
function expectRefused(result: Refusal, file: string): void {
  expect(result.exitCode, result.all).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/unexpected error|TypeError|\n\s+at /);
  expect(existsSync(file)).toBe(true);
}

/**
 * Damaged checkpoints whose fields are each checked on their own, so one resume names every
 * damaged field: each is resumed once (oncePerKey) and read by the tests of the fields it holds.
 * Fields whose check needs another (approvals and the pending call need an intact build and
 * pending; secrets are checked once all else is sound) are damaged in files of their own.
 */
const DAMAGED: Record<string, (saved: Record<string, any>) => void> = {
  'builtin and shapes': (saved) => {
    saved.revision.build.agent.tools[2].builtin = 'nope';
    saved.checkpoint.pending.foo = 1;
    saved.spans[0].foo = 1;
    saved.spans[1].trace_id = 5;
  },
  'tools and checkpoint': (saved) => {
    saved.revision.build.agent.tools = 'x';
    saved.checkpoint = 5;
  },
  'approvals and pending call': (saved) => {
    saved.approvals = { tools: { nope: 'deny' } };
    saved.checkpoint.pending.tool = 'run_command';
    saved.checkpoint.pending.args = { path: 'OTHER.md', content: 'x' };
  },
};
const refusal = oncePerKey(async (name) => {
  const { dir, runId, file } = await paused();
  editCheckpoint(file, DAMAGED[name]!);
  const result = await resume(dir, runId, 'out/spans.jsonl', name === 'tools and checkpoint');
  expectRefused(result, file);
  return { dir, runId, file, stderr: result.stderr };
});

describe('agentcheck resume refuses a damaged checkpoint file (built CLI)', () => {
  it('a damaged build, with the messages an agent build file gets, at its path in the checkpoint', async () => {
    const tools = await refusal('tools and checkpoint');
    expect(tools.stderr).toContain(`${tools.file} at revision.build.agent.tools: expected array, got string "x"`);
    const builtin = await refusal('builtin and shapes');
    expect(builtin.stderr).toContain(`${builtin.file} at revision.build.agent.tools[2].builtin: expected one of "read_file" | "write_file"`);
  });

  it('a key the file does not have inside it, and a span record of the wrong shape, each named', async () => {
    const { file, stderr } = await refusal('builtin and shapes');
    expect(stderr).toContain(`${file} at checkpoint.pending.foo: unknown key "foo" (did you mean "tool"?); expected one of: id, tool, tool_call_id, args`);
    expect(stderr).toContain(`${file} at spans[0].foo: unknown key "foo"; expected one of: trace_id, span_id,`);
    expect(stderr).toContain(`${file} at spans[1].trace_id: expected a string (a span record's trace_id), got number 5`);
    const approvals = await refusal('approvals and pending call');
    expect(approvals.stderr).toContain(`${approvals.file} at approvals.tools.nope: "nope" names no tool of the agent`);
  });

  it('a pending call edited away from the call the messages hold waiting, before the run answers any call (black-box nit)', async () => {
    const { dir, runId, file, stderr } = await refusal('approvals and pending call');
    const source = "the call the checkpoint's state.messages[1].tool_calls[0] holds waiting (the call a resume answers)";
    expect(stderr).toContain(`${file} at checkpoint.pending.tool: expected "write_file", the tool of ${source}, got "run_command"`);
    expect(stderr).toContain(
      `${file} at checkpoint.pending.args: expected {"path":"CHANGELOG.md","content":"- fixed add()\\n"}, the arguments of ${source}, got {"path":"OTHER.md","content":"x"}`,
    );
    // Nothing was answered: the paused run's workspace holds no write.
    expect(existsSync(join(dir, 'out', `${runId}.workspace`, 'CHANGELOG.md'))).toBe(false);
  });

  it('an edited schema, naming the value found', async () => {
    const { dir, runId, file } = await paused();
    editCheckpoint(file, (saved) => (saved.schema = 'agentcheck.run-checkpoint/0'));
    const result = await resume(dir, runId, 'out/spans.jsonl');
    expectRefused(result, file);
    expect(result.stderr).toMatch(/ at schema: expected schema "[^"]+", got string "agentcheck\.run-checkpoint\/0"/);
  });

  it("each damaged field's refusal names the value found beside the one expected", async () => {
    const { dir, runId, file } = await paused();
    const original = readFileSync(file, 'utf8');
    // Several fields in one file, refused in one pass; the rest each on its own.
    editCheckpoint(file, (saved) => {
      saved.checkpoint.kind = 'bogus';
      saved.checkpoint.state = 5;
      saved.spans = 'x';
      saved.revision = [];
    });
    const fields = await resume(dir, runId, 'out/spans.jsonl');
    expectRefused(fields, file);
    expect(fields.stderr).toContain(`${file} at checkpoint.kind: expected "agent" or "flow", got string "bogus"`);
    expect(fields.stderr).toContain(`${file} at checkpoint.state: expected the run's state (an object), got number 5`);
    expect(fields.stderr).toContain(`${file} at spans: expected the run's span records (a list), got string "x"`);
    expect(fields.stderr).toContain(`${file} at revision: expected the paused run's revision object, got an array`);
    const checkpoint = await refusal('tools and checkpoint');
    expect(checkpoint.stderr).toContain(`${checkpoint.file} at checkpoint: expected a checkpoint object, got number 5`);
    // Secrets are checked once the rest of the file is sound: each damaged one in a file of its own.
    const cases: Array<[(saved: Record<string, any>) => void, string]> = [
      [(saved) => (saved.secrets = { FOO: 5 }), `${file} at secrets.FOO: expected {salt, scrypt} (scrypt: 64 hex digits), got number 5`],
      [(saved) => (saved.secrets = 'x'), `${file} at secrets: expected the referenced secret variables {NAME: {salt, scrypt}}, got string "x"`],
    ];
    for (const [edit, message] of cases) {
      writeFileSync(file, original);
      editCheckpoint(file, edit);
      const result = await resume(dir, runId, 'out/spans.jsonl');
      expectRefused(result, file);
      expect(result.stderr).toContain(message);
    }
  });

  it('a secret named like an Object.prototype member, as a variable that is not set', async () => {
    const { dir, runId, file } = await paused();
    editCheckpoint(file, (saved) => (saved.secrets = { constructor: { salt: 'ab', scrypt: '0'.repeat(64) } }));
    const result = await resume(dir, runId, 'out/spans.jsonl');
    expectRefused(result, file);
    expect(result.stderr).toContain(`${file} at secrets.constructor: the paused run holds the value of the secret variable constructor, which is not set here`);
  });

  it('a JSON syntax error, at its line and column', async () => {
    const { dir, runId, file } = await paused();
    const text = readFileSync(file, 'utf8');
    const line = text.split('\n').findIndex((row) => row.includes('"seq": 1,')) + 1;
    writeFileSync(file, text.replace('"seq": 1,', '"seq": 1,,'));
    const result = await resume(dir, runId, 'out/spans.jsonl', true);
    expectRefused(result, file);
    expect(result.stderr).toMatch(new RegExp(`${runId}\\.checkpoint\\.json:${line}:\\d+: is not valid JSON: `));
  });
});
