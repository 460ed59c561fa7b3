import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashValue } from '../../../src/config/canonical-json.js';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import type { Checkpoint } from '../../../src/engine/checkpoint/checkpointer.js';
import { MemoryCheckpointer } from '../../../src/engine/checkpoint/memory-checkpointer.js';
import { invoke } from '../../../src/engine/invoke.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { runCheckpointProblems } from '../../../src/runner/resume/check-run-checkpoint.js';
import { readRunCheckpoint, writeRunCheckpoint } from '../../../src/runner/resume/run-checkpoint-file.js';
import { executeTestRun } from '../../../src/runner/test-run.js';
import { gatedWrite } from '../../helpers/gated-write.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { askerRevision as asker } from '../../engine/checkpoint/asker-flow.js';

// What `agentcheck resume` refuses in its checkpoint file (docs/cli.md, test-run): each damaged
// field is a ConfigError naming the file and the path, never a TypeError mid-run.

let written: { text: string; runId: string };

beforeAll(async () => {
  const record = await executeTestRun(gatedWrite);
  try {
    const runId = record.result.run_id as string;
    const dir = tempDir();
    const file = await writeRunCheckpoint(
      dir,
      {
        run_id: runId,
        revision: record.revision,
        checkpoint: record.checkpoint as Checkpoint,
        spans: record.runSpans,
        script: gatedWrite.script,
        expectations: gatedWrite.expectations,
      },
      {},
    );
    written = { text: readFileSync(file, 'utf8'), runId };
    // Made outside a test: removed here, as the tests need only its text.
    rmSync(dir, { recursive: true, force: true });
  } finally {
    await record.workspace.dispose();
  }
});

/** Writes the checkpoint test-run wrote, as text changed by `edit`, to a fresh folder; returns its path. */
function checkpointText(edit: (text: string) => string = (text) => text): string {
  const file = join(tempDir(), `${written.runId}.checkpoint.json`);
  writeFileSync(file, edit(written.text));
  return file;
}

/** The checkpoint test-run wrote, changed by `edit` (its parsed JSON), in a fresh folder. */
function checkpointFile(edit: (saved: Record<string, any>) => void): string {
  return checkpointText((text) => {
    const saved = JSON.parse(text);
    edit(saved);
    return JSON.stringify(saved, null, 2);
  });
}

/** The problems readRunCheckpoint finds in `file`, one ConfigError each. */
async function problemsOf(file: string): Promise<ConfigError[]> {
  const error = await readRunCheckpoint(file, written.runId, {}).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'expected a ConfigError').toBeInstanceOf(ConfigError);
  return error instanceof ConfigErrors ? [...error.errors] : [error as ConfigError];
}

const located = (problems: ConfigError[]) => problems.map((problem) => [problem.path, problem.expected]);

describe('readRunCheckpoint: the checkpoint file agentcheck resume continues from', () => {
  it('reads back the file test-run wrote, spans, build and messages included, also with a byte order mark', async () => {
    const saved = await readRunCheckpoint(checkpointText(), written.runId, {});
    expect(saved.checkpoint.pending?.tool).toBe('write_file');
    expect(saved.spans?.length).toBeGreaterThan(0);
    await expect(
      readRunCheckpoint(
        checkpointText((text) => `\ufeff${text}`),
        written.runId,
        {},
      ),
    ).resolves.toBeDefined();
  });

  it("refuses a damaged build with the messages an agent build file gets, at the build's path in the file", async () => {
    const damage = (build: Record<string, any>) => {
      build.agent.max_turns = 0;
      build.agent.tools[2].builtin = 'nope';
      build.agent.foo = 1;
    };
    const file = checkpointFile((saved) => damage(saved.revision.build));
    const problems = await problemsOf(file);
    expect(problems.every((problem) => problem.file === file)).toBe(true);
    // The same build given as a build: the same problems, at the same paths under revision.build.
    const build = JSON.parse(written.text).revision.build;
    damage(build);
    let asBuild: ConfigErrors | undefined;
    try {
      revisionFromValue(build);
    } catch (error) {
      asBuild = error as ConfigErrors;
    }
    expect(asBuild?.errors.length).toBe(3);
    expect(located(problems)).toEqual(asBuild?.errors.map((problem) => [`revision.build.${problem.path}`, problem.expected]));
    expect(located(problems)).toContainEqual(['revision.build.agent.max_turns', 'expected a number >= 1, got number 0']);
    // A build the name checks could not read is said as such, never a TypeError in them.
    const tools = await problemsOf(checkpointFile((saved) => (saved.revision.build.agent.tools = 'x')));
    expect(located(tools)).toEqual([['revision.build.agent.tools', 'expected array, got string "x"']]);
  });

  it('refuses a key the file does not have at any level, naming its path', async () => {
    const file = checkpointFile((saved) => {
      saved.checkpoint.foo = 1;
      saved.checkpoint.pending.foo = 1;
      saved.checkpoint.state.foo = 1;
      saved.revision.foo = 1;
      saved.spans[0].foo = 1;
    });
    const paths = (await problemsOf(file)).map((problem) => problem.path);
    expect(paths.sort()).toEqual(['checkpoint.foo', 'checkpoint.pending.foo', 'checkpoint.state.foo', 'revision.foo', 'spans[0].foo']);
  });

  it('quotes an unknown key holding a quote, a dot or white space, or empty, in brackets, also at the top of the checkpoint (black-box bug)', async () => {
    const file = checkpointFile((saved) => {
      saved.checkpoint["q'k"] = 1;
      saved.checkpoint.pending['x.y'] = 1;
      saved.checkpoint.state.usage[''] = 1;
    });
    const paths = (await problemsOf(file)).map((problem) => problem.path);
    expect(paths.sort()).toEqual(['checkpoint.pending["x.y"]', 'checkpoint.state.usage[""]', `checkpoint["q'k"]`]);
  });

  it('refuses values the resumed run would misread: span ids, counts, hashes, deltas, approvals for a tool the build lacks', async () => {
    const file = checkpointFile((saved) => {
      saved.spans[0].trace_id = 5;
      saved.checkpoint.modelCalls = -5;
      saved.revision.hash = 5;
      saved.revision.deltas = [{ sett: {} }];
      saved.approvals = { tools: { nope: 'deny' } };
      saved.workspace_dir = 5;
    });
    const problems = located(await problemsOf(file));
    expect(problems).toContainEqual(['spans[0].trace_id', "expected a string (a span record's trace_id), got number 5"]);
    expect(problems).toContainEqual(['checkpoint.modelCalls', 'expected a whole number >= 0, got number -5']);
    expect(problems).toContainEqual(['revision.hash', 'expected a string, got number 5']);
    expect(problems).toContainEqual(['revision.deltas[0].sett', expect.stringContaining('unknown key "sett"')]);
    expect(problems).toContainEqual(['approvals.tools.nope', expect.stringContaining('"nope" names no tool of the agent; expected one of: read_file,')]);
    expect(problems).toContainEqual(['workspace_dir', 'expected the folder test-run kept the workspace in (a string), got number 5']);
  });

  it('refuses a file without the build_hash test-run writes', async () => {
    const file = checkpointFile((saved) => delete saved.build_hash);
    expect(located(await problemsOf(file))).toEqual([['build_hash', 'expected the hash of the saved build test-run writes (a string), got nothing']]);
  });

  it('refuses a seq below 1, a traceId that is no trace id or not the run_id, and span records of the wrong kind, status or times', async () => {
    for (const seq of [-1, 0, 1.5]) {
      const problems = located(await problemsOf(checkpointFile((saved) => (saved.checkpoint.seq = seq))));
      expect(problems).toEqual([['checkpoint.seq', `expected a whole number >= 1, got number ${seq}`]]);
    }
    const notAnId = located(await problemsOf(checkpointFile((saved) => (saved.checkpoint.traceId = 'abc'))));
    expect(notAnId).toEqual([['checkpoint.traceId', 'expected the run\'s trace id (32 lowercase hex digits), got string "abc"']]);
    // A sound trace id of another run: the file was changed after test-run named it after its run.
    const another = located(await problemsOf(checkpointFile((saved) => (saved.checkpoint.traceId = 'f'.repeat(32)))));
    expect(another).toEqual([
      ['checkpoint.traceId', `expected the paused run's trace id, "${written.runId}" (its run_id, which names the file), got "${'f'.repeat(32)}"`],
    ]);
    const spans = located(
      await problemsOf(
        checkpointFile((saved) => {
          saved.spans[0].status = 'weird';
          saved.spans[0].kind = 'bogus';
          saved.spans[0].start_ms = 'x';
          saved.spans[0].ended = 'yes';
          saved.spans[1].events = [{ name: 'e', time_ms: null }];
          saved.spans[1].attributes.nested = { a: 1 };
        }),
      ),
    );
    expect(spans).toEqual([
      ['spans[0].kind', 'expected one of internal, server, client, producer, consumer (a span record\'s kind), got string "bogus"'],
      ['spans[0].status', 'expected one of unset, ok, error (a span record\'s status), got string "weird"'],
      ['spans[0].start_ms', 'expected a finite number (a span record\'s start_ms, in ms), got string "x"'],
      ['spans[0].ended', 'expected true or false (whether the span had ended), got string "yes"'],
      ['spans[1].attributes.nested', "expected a string, number, boolean, null or a list of those (a span attribute's value), got an object"],
      ['spans[1].events[0].time_ms', "expected a finite number (an event's time, in ms), got null"],
    ]);
  });

  it('says a file holding no object is no checkpoint, not that its schema is wrong', async () => {
    const [problem] = await problemsOf(checkpointText(() => '[1,2]'));
    expect(problem.path).toBeUndefined();
    expect(problem.expected).toBe('expected an object (a checkpoint agentcheck test-run wrote), got an array');
  });

  it('locates a JSON syntax error and a key given twice at their line and column', async () => {
    const broken = checkpointText((text) => text.replace('"seq": 1,', '"seq": 1,,'));
    const [syntax] = await problemsOf(broken);
    const line = written.text.split('\n').findIndex((text) => text.includes('"seq": 1,')) + 1;
    expect(syntax).toMatchObject({ code: 'CONFIG_SYNTAX', line, column: expect.any(Number) });
    expect(syntax.message).toMatch(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:\\d+: is not valid JSON: `));
    const twice = checkpointText((text) => text.replace('"seq": 1,', '"seq": 1, "seq": 2,'));
    const [duplicate] = await problemsOf(twice);
    expect(duplicate).toMatchObject({ code: 'CONFIG_SYNTAX', line, path: 'checkpoint.seq' });
    expect(duplicate.expected).toContain('the key "seq" appears twice in one object');
  });
});

describe('runCheckpointProblems: a checkpoint held to a saved build it was not saved by', () => {
  it("says the checkpoint is another build's (at checkpoint.revisionHash), not damaged for naming a component that build lacks", async () => {
    const checkpointer = new MemoryCheckpointer();
    const turn = await invoke(asker('asker', 'ask'), { messages: [{ role: 'user', content: 'go' }] }, { script: [{ text: 'unused' }], checkpointer });
    expect(turn.stop_reason).toBe('paused');
    const checkpoint = await checkpointer.latest(turn.trace_id);
    const other = asker('asker-copy', 'confirm');
    const problems = runCheckpointProblems({ revision: { ...other, deltaHash: null }, checkpoint, build_hash: hashValue(other.build) }, 'run.checkpoint.json');
    expect(located(problems)).toEqual([['checkpoint.revisionHash', expect.stringContaining('was saved by another build')]]);
  });

  it('says the same of a build edited after it was saved (its hash no longer build_hash), also when the checkpoint names a component it lacks', async () => {
    const checkpointer = new MemoryCheckpointer();
    const revision = asker('asker', 'ask');
    const turn = await invoke(revision, { messages: [{ role: 'user', content: 'go' }] }, { script: [{ text: 'unused' }], checkpointer });
    const checkpoint = await checkpointer.latest(turn.trace_id);
    const saved = { revision: { ...revision, deltaHash: null }, checkpoint, build_hash: hashValue(revision.build) };
    expect(runCheckpointProblems(saved, 'run.checkpoint.json')).toEqual([]);
    // The same revision hash, its build edited: the component the checkpoint waits at renamed.
    const edited = structuredClone(saved);
    edited.revision.build = asker('asker', 'confirm').build;
    expect(located(runCheckpointProblems(edited, 'run.checkpoint.json'))).toEqual([
      [
        'checkpoint.revisionHash',
        `checkpoint ${checkpoint?.id} was saved by another build (revision ${revision.hash}, delta null, build_hash ${saved.build_hash}; revision.build hashes to ${hashValue(edited.revision.build)}), the build saved in this file: the file was changed after test-run wrote it; start over with agentcheck test-run`,
      ],
    ]);
  });
});
