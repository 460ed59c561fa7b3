import { mkdirSync, readdirSync, readFileSync, symlinkSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolResultMessage } from '../../src/engine/model/message.js';
import { FolderWorkspace } from '../../src/engine/workspace/folder-workspace.js';
import { build, runScripted } from '../helpers/run-agent.js';
import { tempDir } from '../helpers/temp-dir.js';

// The workspace sandbox and the no-shell rule, attacked through the real call path (the
// model's tool calls): every escape is refused or inert, and nothing outside changes.

/** Every file under `dir` with its content, for before/after comparisons (symlinks not followed). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string, rel: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path, name);
      else if (entry.isSymbolicLink()) out[name] = '(symlink)';
      else out[name] = readFileSync(path, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

/** A workspace beside an `outside` folder, with symlinks from inside pointing out. */
function layout() {
  const base = tempDir({
    'ws/notes.txt': 'hello\n',
    'outside/secret.txt': 'TOPSECRET\n',
    'victim/keep.txt': 'keep me\n',
  });
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  symlinkSync('../outside/secret.txt', join(ws, 'link-file'));
  symlinkSync(outside, join(ws, 'link-dir'));
  symlinkSync(join(outside, 'created-through-dangling-link.txt'), join(ws, 'dangling'));
  mkdirSync(join(ws, 'sub'));
  symlinkSync('../../outside', join(ws, 'sub', 'up'));
  return { base, ws, outside, victim: join(base, 'victim') };
}

const FILE_TOOLS = ['read_file', 'write_file', 'edit_file', 'list_dir', 'find_files', 'grep'].map((name) => ({ name, description: name, builtin: name }));

describe('workspace sandbox (file tools)', () => {
  it('refuses traversal, absolute paths and symlinks out of the workspace, for reads and writes', async () => {
    const { base, ws, outside } = layout();
    const before = snapshot(base);
    const abs = join(outside, 'secret.txt');
    const escapes: Array<{ name: string; args: Record<string, unknown> }> = [
      { name: 'read_file', args: { path: '../outside/secret.txt' } },
      { name: 'read_file', args: { path: 'sub/../../outside/secret.txt' } },
      { name: 'read_file', args: { path: abs } },
      { name: 'read_file', args: { path: 'link-file' } },
      { name: 'read_file', args: { path: 'link-dir/secret.txt' } },
      { name: 'read_file', args: { path: 'sub/up/secret.txt' } },
      { name: 'read_file', args: { path: 'notes.txt\u0000../../outside/secret.txt' } },
      { name: 'write_file', args: { path: '../outside/new.txt', content: 'pwned' } },
      { name: 'write_file', args: { path: join(outside, 'abs.txt'), content: 'pwned' } },
      { name: 'write_file', args: { path: 'link-file', content: 'pwned' } },
      { name: 'write_file', args: { path: 'link-dir/new.txt', content: 'pwned' } },
      { name: 'write_file', args: { path: 'link-dir/deeper/new.txt', content: 'pwned' } },
      { name: 'write_file', args: { path: 'dangling', content: 'pwned' } },
      { name: 'write_file', args: { path: 'sub/up/new.txt', content: 'pwned' } },
      { name: 'edit_file', args: { path: 'link-file', old: 'TOPSECRET', new: 'pwned' } },
      { name: 'edit_file', args: { path: '../outside/secret.txt', old: 'TOPSECRET', new: 'pwned' } },
      { name: 'list_dir', args: { path: '..' } },
      { name: 'list_dir', args: { path: 'link-dir' } },
      { name: 'list_dir', args: { path: '/' } },
      { name: 'find_files', args: { pattern: '.*', path: '../outside' } },
      { name: 'find_files', args: { pattern: '.*', path: 'link-dir' } },
      { name: 'grep', args: { pattern: 'TOPSECRET', path: 'link-file' } },
      { name: 'grep', args: { pattern: 'TOPSECRET', path: abs } },
    ];
    const { turn, model } = await runScripted(
      build({ tools: FILE_TOOLS }),
      [
        { tool_calls: escapes },
        // Walks from the root must not follow the links out either.
        {
          tool_calls: [
            { name: 'grep', args: { pattern: 'TOPSECRET' } },
            { name: 'find_files', args: { pattern: 'secret' } },
            { name: 'list_dir', args: {} },
          ],
        },
        { text: 'done' },
      ],
      { workspace: FolderWorkspace.at(ws) },
    );
    expect(turn.error).toBeUndefined();

    const results = model.requests[1].messages.filter((m): m is ToolResultMessage => m.role === 'tool');
    expect(results).toHaveLength(escapes.length);
    results.forEach((result, index) => {
      const call = `${escapes[index].name} ${JSON.stringify(escapes[index].args)}`;
      expect(result.is_error, call).toBe(true);
      expect(result.content, call).toMatch(/outside the workspace|invalid path/);
      expect(result.content, call).not.toContain('TOPSECRET');
    });

    const walks = model.requests[2].messages.filter((m): m is ToolResultMessage => m.role === 'tool').slice(-3);
    expect(walks.map((m) => m.is_error)).toEqual([false, false, false]);
    expect(walks[0].content).toBe('[]');
    expect(walks[1].content).toBe('[]');
    expect(JSON.parse(walks[2].content)).toEqual(['dangling', 'link-dir', 'link-file', 'notes.txt', 'sub/']);
    for (const message of turn.messages) expect(message.content).not.toContain('TOPSECRET');

    // Nothing outside the workspace was created, changed or removed; nothing was written inside.
    expect(snapshot(base)).toEqual(before);
    expect(existsSync(join(outside, 'created-through-dangling-link.txt'))).toBe(false);
  });
});

describe('no shell: command injection is inert', () => {
  const injections = (victim: string, pwned: (n: number) => string) => [
    `; rm -rf ${victim}`,
    `$(touch ${pwned(1)})`,
    `\`touch ${pwned(2)}\``,
    `x && touch ${pwned(3)}`,
    `x | tee ${pwned(4)}`,
    `x\ntouch ${pwned(5)}`,
    `$(rm -rf ${victim})`,
  ];

  it('passes hostile text through run_command and a command tool as plain arguments', async () => {
    const { base, ws, victim } = layout();
    const pwned = (n: number) => join(base, `PWNED-${n}`);
    const hostile = injections(victim, pwned);
    const tools = [
      { name: 'shell', description: 'run', builtin: 'run_command' },
      {
        name: 'say',
        description: 'say',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        command: { argv: ['echo', '{{ args.text }}'] },
      },
      {
        name: 'greet',
        description: 'greet',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        command: { argv: ['echo', 'hello-{{ args.text }}'] },
      },
    ];
    const calls = [
      ...hostile.map((text) => ({ name: 'shell', args: { argv: ['echo', text] } })),
      ...hostile.map((text) => ({ name: 'say', args: { text } })),
      ...hostile.map((text) => ({ name: 'greet', args: { text } })),
      // A metacharacter in the program name is part of a (missing) program's name.
      { name: 'shell', args: { argv: [`echo; touch ${pwned(6)}`] } },
      { name: 'shell', args: { argv: [`$(touch ${pwned(7)})`] } },
      // A template inside an argument value is not expanded a second time.
      { name: 'say', args: { text: '{{ args.text }}' } },
    ];
    const { turn, model } = await runScripted(build({ tools, commands: { allow: ['echo'] } }), [{ tool_calls: calls }, { text: 'done' }], {
      workspace: FolderWorkspace.at(ws),
      approvals: { default: 'approve' },
      env: { PATH: process.env.PATH },
    });
    expect(turn.error).toBeUndefined();
    const results = model.requests[1].messages.filter((m): m is ToolResultMessage => m.role === 'tool');
    expect(results).toHaveLength(calls.length);

    hostile.forEach((text, i) => {
      for (const [offset, prefix] of [
        [0, ''],
        [hostile.length, ''],
        [2 * hostile.length, 'hello-'],
      ] as const) {
        const result = results[offset + i];
        expect(result.is_error, text).toBe(false);
        expect(JSON.parse(result.content).stdout, text).toBe(`${prefix}${text}\n`);
      }
    });
    const [badProgram1, badProgram2, template] = results.slice(-3);
    expect(badProgram1.is_error).toBe(true);
    expect(badProgram1.content).toMatch(/could not be started/);
    expect(badProgram2.is_error).toBe(true);
    expect(JSON.parse(template.content).stdout).toBe('{{ args.text }}\n');

    for (let n = 1; n <= 7; n++) expect(existsSync(pwned(n)), `PWNED-${n}`).toBe(false);
    expect(readFileSync(join(victim, 'keep.txt'), 'utf8')).toBe('keep me\n');
  });

  it("gives command processes only PATH (and allow_env), never the runner's API keys", async () => {
    const { ws } = layout();
    const env = {
      PATH: process.env.PATH,
      HOME: '/home/agentcheck-test',
      OPENAI_API_KEY: 'sk-env-SECRET-openai',
      ANTHROPIC_API_KEY: 'sk-ant-env-SECRET',
      GITHUB_TOKEN: 'ghp_env_SECRET',
    };
    const dump = [process.execPath, '-e', 'process.stdout.write(JSON.stringify(process.env))'];
    const tools = [
      { name: 'shell', description: 'run', builtin: 'run_command' },
      { name: 'dump', description: 'env', parameters: { type: 'object' }, command: { argv: dump, allow_env: ['HOME'] } },
    ];
    const { model } = await runScripted(
      build({ tools }),
      [
        {
          tool_calls: [
            { name: 'shell', args: { argv: dump } },
            { name: 'dump', args: {} },
          ],
        },
        { text: 'done' },
      ],
      { workspace: FolderWorkspace.at(ws), approvals: { default: 'approve' }, env },
    );
    const [viaShell, viaTool] = model.requests[1].messages
      .filter((m): m is ToolResultMessage => m.role === 'tool')
      .map((m) => JSON.parse(JSON.parse(m.content).stdout) as Record<string, string>);
    for (const seen of [viaShell, viaTool]) {
      expect(seen.PATH).toBe(process.env.PATH);
      expect(seen.OPENAI_API_KEY).toBeUndefined();
      expect(seen.ANTHROPIC_API_KEY).toBeUndefined();
      expect(seen.GITHUB_TOKEN).toBeUndefined();
      expect(JSON.stringify(seen)).not.toContain('SECRET');
    }
    expect(viaTool.HOME).toBe('/home/agentcheck-test');
    expect(viaShell.HOME).toBeUndefined();
  });
});
