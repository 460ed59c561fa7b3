import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { oncePerKey, sharedDir } from '../helpers/shared-fixture.js';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, ROOT, runCli } from './cli.js';

const SCRIPT = '- tool_calls: [{name: finish, args: {}}]\n- text: done\n';
const RUN = ['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 'script.yaml', '--terminal-tool', 'finish', '--json'];

// Inputs refused at load run the CLI's entry in-process (runMain): nothing runs and nothing is
// written. The built CLI refuses an approvals name of an MCP tool (which starts the MCP server)
// here, and a bad --script in commands.test.ts.
describe('agentcheck test-run: what its inputs mean', () => {
  /**
   * One test-run per delta, each run once (oncePerKey) in one folder: the no-change test and the
   * order test both read the run of name-first.yaml, a delta that changes the build. The delta
   * runs here go through the CLI's entry in-process (runMain): a delta's hash is logic, and a
   * scripted run that calls nothing outside leaves no process state changed (runMain checks it)
   * and no handle open; the built CLI runs test-run to its result below (blank.yaml, the MCP runs).
   */
  const deltaDir = sharedDir({
    'agent.yaml': AGENT_YAML,
    'script.yaml': SCRIPT,
    'empty.yaml': '{}\n',
    'empty-keys.yaml': 'set: {}\nremove: []\n',
    'same.yaml': 'set: {agent: {name: E2E bot}}\n',
    'name-first.yaml': 'set:\n  agent.name: Renamed bot\n  "agent.tools[name=lookup]": {description: Find.}\n',
    'tool-first.yaml': 'set:\n  "agent.tools[name=lookup]": {description: Find.}\n  agent.name: Renamed bot\n',
  });
  const deltaHash = oncePerKey(async (delta) => {
    const result = await runMain([...RUN, '--delta', delta], deltaDir);
    expect(result.exitCode, result.stderr).toBe(0);
    return JSON.parse(result.stdout).resolved.delta_hash as string | null;
  });

  it('gives every delta that changes nothing a null delta_hash, however it is spelt', async () => {
    const hashes: Record<string, unknown> = {};
    // name-first.yaml changes the build: it gets a hash, as the others would if they were not null.
    for (const delta of ['empty.yaml', 'empty-keys.yaml', 'same.yaml', 'name-first.yaml']) hashes[delta] = await deltaHash(delta);
    expect(hashes).toEqual({ 'empty.yaml': null, 'empty-keys.yaml': null, 'same.yaml': null, 'name-first.yaml': expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('gives set entries that write one place another delta_hash in another order, as they run another build', async () => {
    // docs/formats.md, Delta: entries apply in the order written, so the later one's value wins.
    const dir = tempDir({
      'agent.yaml': AGENT_YAML.replace('  name: E2E bot\n', '  name: E2E bot\n  max_turns: 8\n'),
      'script.yaml': SCRIPT,
      'whole-first.yaml': 'set:\n  agent: {max_turns: 2}\n  "agent.max_turns": 5\n',
      'path-first.yaml': 'set:\n  "agent.max_turns": 5\n  agent: {max_turns: 2}\n',
    });
    const resolved = async (delta: string) => {
      const result = await runMain([...RUN, '--delta', delta], dir);
      expect(result.exitCode, result.stderr).toBe(0);
      return JSON.parse(result.stdout).resolved as { max_turns: number; delta_hash: string };
    };
    const wholeFirst = await resolved('whole-first.yaml');
    const pathFirst = await resolved('path-first.yaml');
    expect([wholeFirst.max_turns, pathFirst.max_turns]).toEqual([5, 2]);
    expect(wholeFirst.delta_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(pathFirst.delta_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(wholeFirst.delta_hash).not.toBe(pathFirst.delta_hash);
  });

  it('gives set entries that cannot write one place the same delta_hash in either order, the one it always had', async () => {
    for (const delta of ['name-first.yaml', 'tool-first.yaml']) {
      // The hash agentcheck gave this delta before order counted: reports and baselines keep comparing equal.
      expect(await deltaHash(delta), delta).toBe('aecd23eeaf97e896');
    }
  });

  it('refuses an empty or blank message given by --inputs as it refuses an empty --message, in the same words', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'script.yaml': SCRIPT,
      'inputs.yaml': 'messages:\n  - {role: user, content: hi}\n  - {role: assistant, content: "  "}\n  - {role: user, content: ""}\n',
    });
    const run = RUN.filter((arg) => arg !== '--message' && arg !== 'go');
    const inputs = await runMain([...run, '--inputs', 'inputs.yaml'], dir);
    expect(inputs.exitCode).toBe(2);
    expect(inputs.stdout).toBe('');
    const lines = inputs.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/inputs\.yaml:3:\d+ at messages\[1\]\.content: the message is empty; give the message text$/),
      expect.stringMatching(/inputs\.yaml:4:\d+ at messages\[2\]\.content: the message is empty; give the message text$/),
    ]);
    const message = await runMain([...run, '--message', ' '], dir);
    expect(message.exitCode).toBe(2);
    expect(message.stderr).toContain('--message is empty; give the message text');
    // A scenario's inputs use the same format: validate and run refuse the same messages in the same words.
    const scenario =
      'name: blank\nagent: agent.yaml\ninputs:\n  messages:\n    - {role: user, content: hi}\n    - {role: assistant, content: "  "}\n    - {role: user, content: ""}\nmodel: {script: [{text: ok}]}\n';
    writeFileSync(join(dir, 'blank.scenario.yaml'), scenario);
    for (const args of [
      ['validate', 'blank.scenario.yaml'],
      ['run', 'blank.scenario.yaml', '--out', 'out'],
    ]) {
      const result = await runMain(args, dir);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/blank\.scenario\.yaml:6:\d+ at inputs\.messages\[1\]\.content: the message is empty; give the message text$/m);
      expect(result.stderr).toMatch(/blank\.scenario\.yaml:7:\d+ at inputs\.messages\[2\]\.content: the message is empty; give the message text$/m);
    }
  });

  it('names what an --inputs file that is empty, comments only or a list was expected to be, as the other file flags do', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': SCRIPT, 'cmt.yaml': '# to do\n', 'list.yaml': '- {role: user, content: hi}\n' });
    const run = RUN.filter((arg) => arg !== '--message' && arg !== 'go');
    const comment = await runMain([...run, '--inputs', 'cmt.yaml'], dir);
    expect(comment.exitCode).toBe(2);
    expect(comment.stdout).toBe('');
    expect(comment.stderr.trim()).toMatch(
      /^agentcheck: invalid input: \S*cmt\.yaml: expected inputs \(a mapping with messages and an optional context\), got an empty file$/,
    );
    const list = await runMain([...run, '--inputs', 'list.yaml'], dir);
    expect(list.exitCode).toBe(2);
    expect(list.stderr.trim()).toMatch(
      /^agentcheck: invalid input: \S*list\.yaml:1:1: expected inputs \(a mapping with messages and an optional context\), got an array$/,
    );
  });

  it('refuses a script entry that is both an answer and an error, and one answering with an empty tool_calls list, before anything runs', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      // Entry [0] is both an answer and an error, [2] answers with an empty tool_calls list: each
      // entry is checked on its own, so one run refuses both, and says nothing else.
      'refused.yaml': '- {tool_calls: [{name: lookup, args: {id: "1"}}], text: hi, error: {message: boom}}\n- text: x\n- {tool_calls: []}\n',
      'blank.yaml': '- {text: ""}\n',
    });
    const refused = await runMain(['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 'refused.yaml', '--json'], dir);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^agentcheck: invalid input: \S*refused\.yaml:1:\d+ at \[0\]\.error: an entry is either an answer \(text and\/or tool_calls\) or an error, not both: a call that fails answers nothing, so its text and tool_calls would be dropped; remove one$/,
      ),
      expect.stringMatching(
        /^\S*refused\.yaml:3:\d+ at \[2\]\.tool_calls: an entry needs text, tool_calls or error: an empty tool_calls list answers nothing \(give at least one call, or text: "" for an empty answer\)$/,
      ),
    ]);
    // The way to write an empty answer still runs (in-process, runMainFull: the script's meaning is
    // the run's logic; the built CLI runs test-run to a pass in the MCP test below).
    const blank = await runMainFull(['test-run', '--agent', 'agent.yaml', '--message', 'hi', '--script', 'blank.yaml', '--json'], dir);
    expect(blank.stderr).toBe('');
    expect(JSON.parse(blank.stdout)).toMatchObject({ output: '', stop_reason: 'end_turn' });
  });

  it('says a delta setting part of agent.llm on a build without one must give provider and model too', async () => {
    const dir = tempDir({
      'agent.yaml': 'id: mini\nagent:\n  name: Mini\n  tools: [{name: finish, description: f, returns: {done: true}}]\n',
      'script.yaml': SCRIPT,
      'delta.yaml': 'set:\n  agent:\n    llm: {parameters: {temperature: 0.5}}\n',
    });
    const result = await runMain([...RUN, '--delta', 'delta.yaml'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toMatch(
      /^agentcheck: invalid input: .*delta\.yaml:3:10 at set\.agent\.llm: after applying the delta: the build has no agent\.llm \(it uses the default model, scripted\/scripted\), so a delta that sets part of agent\.llm must give agent\.llm\.provider and agent\.llm\.model too$/,
    );
  });

  it('says a --terminal-tool or approvals name the --delta removed is gone because of the delta, where the --agent file still lists it', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'rm.yaml': 'remove: ["agent.tools[name=lookup]"]\n',
      'calls-lookup.yaml': '- tool_calls: [{name: lookup, args: {id: "1"}}]\n- text: done\n',
      'ap.yaml': 'tools: {lookup: deny}\n',
      'calls-typo.yaml': '- tool_calls: [{name: lookupp, args: {id: "1"}}]\n- text: done\n',
      'ap-typo.yaml': 'tools: {lookupp: deny}\n',
    });
    const removed = ' (the --delta removes or renames it: names are held to the build after it)';
    const noScript = ['test-run', '--agent', 'agent.yaml', '--message', 'go', '--json'];
    // test-run checks each of its inputs on its own and says every problem: one run names all three.
    const gone = await runMain(
      [...noScript, '--script', 'calls-lookup.yaml', '--terminal-tool', 'lookup', '--delta', 'rm.yaml', '--approvals', 'ap.yaml'],
      dir,
    );
    expect(gone.exitCode, gone.stderr).toBe(2);
    expect(gone.stderr).toMatch(/--terminal-tool: it names no tool of the agent: "lookup"; expected one of: [^\n]*\(the --delta removes or renames it/);
    expect(gone.stderr).toMatch(/the script calls "lookup", which the agent does not offer the model; [^\n]*\(the --delta removes or renames it/);
    expect(gone.stderr).toMatch(/ap\.yaml:1:\d+ at tools\.lookup: [^\n]*\(the --delta removes or renames it/);
    expect(
      gone.stderr
        .trim()
        .split('\n')
        .filter((line) => line.endsWith(removed)),
    ).toHaveLength(3);
    // A name no build has gets no such words, in any of the three; without --delta neither.
    const typo = await runMain(
      [...noScript, '--script', 'calls-typo.yaml', '--terminal-tool', 'lookupp', '--delta', 'rm.yaml', '--approvals', 'ap-typo.yaml'],
      dir,
    );
    expect(typo.exitCode, typo.stderr).toBe(2);
    expect(typo.stderr).toContain('--terminal-tool: it names no tool of the agent: "lookupp"');
    expect(typo.stderr).toContain('the script calls "lookupp", which the agent does not offer the model');
    expect(typo.stderr).toMatch(/ap-typo\.yaml:1:\d+ at tools\.lookupp: "lookupp" names no tool of the agent/);
    expect(typo.stderr).not.toContain('--delta removes');
  });

  it('takes an MCP tool in approvals.tools by the name the result gives it, and points a near miss to the full name', async () => {
    const dir = tempDir({
      'script.yaml':
        '- tool_calls: [{name: mcp__fs__list_directory, args: {path: .}}]\n- tool_calls: [{name: mcp__fs__read_text_file, args: {path: README.txt}}]\n- text: done\n',
      'delta.yaml': 'set:\n  "agent.mcps[name=fs]": {permission: ask}\n',
      'short.yaml': 'tools: {list_directory: approve, read_text_file: approve}\n',
      'typo.yaml': 'tools: {list_directry: approve}\n',
    });
    const run = ['test-run', '--agent', join(ROOT, 'fixtures/agents/fs-mcp-agent.yaml'), '--message', 'x', '--script', 'script.yaml'];
    const flags = ['--terminal-tool', 'read_text_file', '--delta', 'delta.yaml', '--json'];
    const paused = JSON.parse((await runCli([...run, ...flags, '--spans', 'paused.jsonl'], dir)).stdout);
    expect(paused.approvals).toEqual([{ tool: 'list_directory', decision: 'pending' }]);
    const approved = await runCli([...run, ...flags, '--approvals', 'short.yaml'], dir);
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({
      verdict: 'pass',
      approvals: [
        { tool: 'list_directory', decision: 'approve' },
        { tool: 'read_text_file', decision: 'approve' },
      ],
    });
    const typo = await runCli([...run, ...flags, '--approvals', 'typo.yaml'], dir);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toMatch(
      /typo\.yaml:1:9 at tools\.list_directry: "list_directry" names no tool of the agent; .*; did you mean "mcp__fs__list_directory"\?/,
    );
  });
});
