import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check, evidenceOf, invalid } from './check-helpers.js';

describe('output', () => {
  const evidence = evidenceOf([], { output: 'Refund created: r1' });
  it('contains / not_contains / equals / matches', () => {
    expect(check('output', { contains: 'Refund created' }, evidence)).toMatchObject({ status: 'pass', reason: 'output contains "Refund created"' });
    expect(check('output', { contains: ['Refund', 'r1'], not_contains: 'sorry' }, evidence).reason).toBe(
      'output contains "Refund", contains "r1", does not contain "sorry"',
    );
    expect(check('output', { contains: 'refund denied' }, evidence).reason).toBe('expected output to contain "refund denied"; output was "Refund created: r1"');
    expect(check('output', { not_contains: 'r1' }, evidence).reason).toBe('expected output not to contain "r1"; output was "Refund created: r1"');
    expect(check('output', { equals: 'Refund created' }, evidence).reason).toBe('expected output to equal "Refund created"; output was "Refund created: r1"');
    expect(check('output', { matches: '^Refund created: r\\d+$' }, evidence).status).toBe('pass');
    expect(check('output', { matches: '^r\\d' }, evidence).reason).toBe('expected output to match /^r\\d/; output was "Refund created: r1"');
  });
  it('schema on the JSON-parsed output', () => {
    const schema = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };
    expect(check('output', { schema }, evidenceOf([], { output: '{"id":"r1"}' })).reason).toBe('output is JSON valid against the schema');
    expect(check('output', { schema }, evidenceOf([], { output: '{"id":1}' })).reason).toBe(
      'expected output to be JSON valid against the schema at id: expected string, got number 1; output was "{\\"id\\":1}"',
    );
    expect(check('output', { schema }, evidence).reason).toBe(
      'expected output to be JSON valid against the schema; it is not JSON; output was "Refund created: r1"',
    );
  });
  it('validates', () => {
    expect(invalid('output', {})).toContain('expected at least one of contains, not_contains, equals, matches, schema');
    expect(invalid('output', { matches: '(a+)+' })).toContain('at expect.checks[0].output.matches: regular expression /(a+)+/ has a nested quantifier');
    expect(invalid('output', { schema: { type: 12 } })).toContain('at expect.checks[0].output.schema.type: expected one of "array"');
    // Every problem of the schema at once, each at its value, as a tool's parameters get them.
    const schema = { type: 'objct', properties: { x: { type: 'strin' } }, requird: ['x'] };
    expect(invalid('output', { schema })?.split('\n')).toEqual([
      expect.stringMatching(/at expect\.checks\[0\]\.output\.schema\.properties\.x\.type: expected one of .* got string "strin" \(did you mean "string"\?\)$/),
      expect.stringMatching(/at expect\.checks\[0\]\.output\.schema\.type: expected one of .* got string "objct" \(did you mean "object"\?\)$/),
      expect.stringMatching(/at expect\.checks\[0\]\.output\.schema\.requird: unknown JSON Schema keyword "requird" \(did you mean "required"\?\)/),
    ]);
    expect(invalid('output', { contain: 'x' })).toContain('unknown key "contain"');
  });
  it('refuses a contains or not_contains that every output holds (an empty list or text)', () => {
    for (const key of ['contains', 'not_contains']) {
      expect(invalid('output', { [key]: [] })).toContain(`at expect.checks[0].output.${key}: expected at least 1 item(s)`);
      expect(invalid('output', { [key]: [], equals: 'x' })).toContain(`at expect.checks[0].output.${key}: expected at least 1 item(s)`);
      expect(invalid('output', { [key]: '' })).toContain(`at expect.checks[0].output.${key}: expected a string of at least 1 character(s)`);
      expect(invalid('output', { [key]: ['a', ''] })).toContain(`at expect.checks[0].output.${key}[1]: expected a string of at least 1 character(s)`);
      expect(invalid('output', { [key]: ['a'] })).toBeNull();
    }
    // An empty output is a meaningful expectation.
    expect(invalid('output', { equals: '' })).toBeNull();
  });
});

describe('resolved', () => {
  const resolved = {
    model: 'gpt-4.1-mini',
    parameters: { temperature: 0 },
    tools: [{ name: 'lookup_order', permission: 'allow' }],
    skills: ['build-an-agent'],
  };
  const evidence = evidenceOf([], { resolved });
  it('contains: list items, names of listed objects, substrings', () => {
    expect(check('resolved', { path: 'skills', contains: 'build-an-agent' }, evidence).reason).toBe('resolved skills contains "build-an-agent"');
    expect(check('resolved', { path: 'tools', contains: 'lookup_order' }, evidence).status).toBe('pass');
    expect(check('resolved', { path: 'model', contains: 'gpt-4' }, evidence).status).toBe('pass');
    expect(check('resolved', { path: 'skills', contains: 'other' }, evidence).reason).toBe(
      'expected resolved skills to contain "other"; it is ["build-an-agent"]',
    );
  });
  it('equals with dotted and indexed paths', () => {
    expect(check('resolved', { path: 'parameters.temperature', equals: 0 }, evidence).status).toBe('pass');
    expect(check('resolved', { path: 'tools[0].permission', equals: 'allow' }, evidence).status).toBe('pass');
    expect(check('resolved', { path: 'tools.0.name', equals: { $regex: '^lookup' } }, evidence).status).toBe('pass');
    expect(check('resolved', { path: 'model', equals: 'gpt-4.1' }, evidence).reason).toBe('expected resolved model to equal "gpt-4.1"; it is "gpt-4.1-mini"');
    expect(check('resolved', { path: 'tools[3].name', equals: 'x' }, evidence).reason).toBe('expected resolved config tools[3].name to exist; it does not');
  });
  it('validates', () => {
    expect(invalid('resolved', { path: 'skills' })).toContain('expected exactly one of contains | equals; got none');
    expect(invalid('resolved', { path: 'skills', contains: 'a', equals: 'b' })).toContain('expected exactly one of contains | equals; got contains and equals');
    expect(invalid('resolved', { path: 'a..b', equals: 1 })).toContain('expected a dotted path');
    // The resolved config's keys are fixed: a misspelt one could never exist.
    expect(invalid('resolved', { path: 'skils', equals: [] })).toContain(
      'unknown resolved config key "skils" (did you mean "skills"?); expected one of: harness, provider',
    );
    expect(invalid('resolved', { path: 'external.kind', equals: 'http' })).toBeNull();
    expect(invalid('resolved', { path: 'commands.allow', contains: 'ls' })).toBeNull();
  });
});

describe('state', () => {
  const flow_state = { status: 'done', context: { read_config: { tool_result: 'port: 8080', error: null }, tags: ['a', 'b'] }, ui_chat_log: [] };
  const evidence = evidenceOf([], { flow_state });
  it('equals / contains / exists on IOKey paths', () => {
    expect(check('state', { key: 'status', equals: 'done' }, evidence).reason).toBe('state status equals "done"');
    expect(check('state', { key: 'context:read_config.tool_result', contains: '8080' }, evidence).status).toBe('pass');
    expect(check('state', { key: 'context:tags', contains: 'b' }, evidence).status).toBe('pass');
    expect(check('state', { key: 'context:read_config.error', exists: false }, evidence).status).toBe('pass');
    expect(check('state', { key: 'context:read_config', exists: true }, evidence).status).toBe('pass');
  });
  it('fails with what it saw', () => {
    expect(check('state', { key: 'status', equals: 'paused' }, evidence).reason).toBe('expected state status to equal "paused"; it is "done"');
    expect(check('state', { key: 'context:fixer.final_answer', exists: true }, evidence).reason).toBe(
      'expected state context:fixer.final_answer to exist; it does not',
    );
    expect(check('state', { key: 'context:missing', equals: 1 }, evidence).reason).toBe('expected state context:missing to equal 1; it does not exist');
    // An object is searched by key: the failure shows the keys, not text that seems to be there.
    expect(check('state', { key: 'context:read_config', contains: '8080' }, evidence).reason).toBe(
      'expected state context:read_config to contain "8080"; it is an object, searched by key, and its keys are "tool_result", "error"',
    );
  });
  it('errors without a flow state', () => {
    expect(check('state', { key: 'status', equals: 'done' }, evidenceOf([]))).toMatchObject({ status: 'error' });
  });
  it('validates keys', () => {
    expect(invalid('state', { key: 'ctx:a', equals: 1 })).toContain('expected a state key such as context:read_config.tool_result');
    expect(invalid('state', { key: 'context:', equals: 1 })).toContain('expected a state key');
    expect(invalid('state', { key: 'status', exists: 'yes' })).toContain('expected boolean');
  });
});

describe('file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentcheck-file-check-'));
  const outside = mkdtempSync(join(tmpdir(), 'agentcheck-outside-'));
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'notes.md'), 'TODO: ship it\n');
  writeFileSync(join(dir, 'one.txt'), 'x');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
  symlinkSync(outside, join(dir, 'linkdir'));
  symlinkSync(join(outside, 'missing.txt'), join(dir, 'dangling-out'));
  symlinkSync('missing-inside.txt', join(dir, 'dangling-in'));
  symlinkSync('loop-b', join(dir, 'loop-a'));
  symlinkSync('loop-a', join(dir, 'loop-b'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const evidence = evidenceOf([], {}, { workspaceDir: dir });

  it('exists / contains / not_contains / equals', () => {
    expect(check('file', { path: 'docs/notes.md' }, evidence).reason).toBe('docs/notes.md exists');
    expect(check('file', { path: 'docs/notes.md', contains: 'TODO' }, evidence).reason).toBe('docs/notes.md exists with the expected text');
    expect(check('file', { path: 'docs/notes.md', equals: 'TODO: ship it\n' }, evidence).status).toBe('pass');
    expect(check('file', { path: 'gone.md', exists: false }, evidence).reason).toBe('gone.md does not exist');
  });
  it('fails with what it saw', () => {
    expect(check('file', { path: 'docs/notes.md', contains: 'DONE' }, evidence).reason).toBe(
      'expected docs/notes.md to contain "DONE"; it holds "TODO: ship it\\n"',
    );
    expect(check('file', { path: 'docs/notes.md', not_contains: 'TODO' }, evidence).reason).toBe('expected docs/notes.md not to contain "TODO"; it does');
    expect(check('file', { path: 'docs/notes.md', exists: false }, evidence).reason).toBe('expected docs/notes.md not to exist; it does (14 bytes)');
    expect(check('file', { path: 'x.md' }, evidence).reason).toBe('expected x.md to exist in the workspace; it does not');
  });
  it('says "1 byte", not "1 bytes"', () => {
    expect(check('file', { path: 'one.txt', exists: false }, evidence).reason).toBe('expected one.txt not to exist; it does (1 byte)');
  });
  it('reads a path ending in "/" or "/." as a folder, as the file tools do: a file (or a link to one) named so does not exist there', () => {
    symlinkSync('one.txt', join(dir, 'one-link'));
    for (const [path, ending] of [
      ['one.txt/', '/'],
      ['one.txt/.', '/.'],
      ['one-link/', '/'],
    ]) {
      const name = path.slice(0, path.length - ending.length);
      const why = `${name} is a file, and a path ending in "${ending}" names a folder`;
      expect(check('file', { path, exists: false }, evidence), path).toMatchObject({ status: 'pass', reason: `${path} does not exist (${why})` });
      expect(check('file', { path }, evidence), path).toMatchObject({
        status: 'fail',
        reason: `expected ${path} to exist in the workspace; it does not (${why})`,
      });
      expect(check('file', { path, contains: 'x' }, evidence), path).toMatchObject({
        status: 'fail',
        reason: `expected ${path} to exist in the workspace; it does not (${why})`,
      });
    }
    // A folder named so still exists; a path through the file names nothing.
    expect(check('file', { path: 'docs/' }, evidence)).toMatchObject({ status: 'pass', reason: 'docs/ exists (a folder)' });
    expect(check('file', { path: 'docs/.' }, evidence)).toMatchObject({ status: 'pass', reason: 'docs/. exists (a folder)' });
    expect(check('file', { path: 'one.txt/x', exists: false }, evidence)).toMatchObject({ status: 'pass', reason: 'one.txt/x does not exist' });
  });
  it('counts a folder as existing: exists: false fails on a folder the agent made; text checks need a file', () => {
    expect(check('file', { path: 'docs' }, evidence)).toMatchObject({ status: 'pass', reason: 'docs exists (a folder)' });
    expect(check('file', { path: 'docs', exists: false }, evidence)).toMatchObject({
      status: 'fail',
      reason: 'expected docs not to exist; it does (a folder)',
    });
    expect(check('file', { path: '.' }, evidence).status).toBe('pass');
    expect(check('file', { path: 'docs', contains: 'x' }, evidence)).toMatchObject({
      status: 'fail',
      reason: 'expected docs to be a file with the expected text; it is a folder',
    });
  });
  it('counts a named pipe the agent made as existing, without reading it', () => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    expect(check('file', { path: 'pipe' }, evidence)).toMatchObject({ status: 'pass', reason: 'pipe exists (a named pipe)' });
    expect(check('file', { path: 'pipe', exists: false }, evidence).reason).toBe('expected pipe not to exist; it does (a named pipe)');
    expect(check('file', { path: 'pipe', contains: 'x' }, evidence).reason).toBe('expected pipe to be a file with the expected text; it is a named pipe');
    expect(check('file', { path: 'pipe/', exists: false }, evidence).reason).toBe(
      'pipe/ does not exist (pipe is a named pipe, and a path ending in "/" names a folder)',
    );
  });
  it('errors without a workspace, or when a link leads outside it', () => {
    expect(check('file', { path: 'a.md' }, evidenceOf([]))).toMatchObject({ status: 'error', reason: 'no workspace is known for this run; cannot check a.md' });
    expect(check('file', { path: 'link.txt', contains: 'secret' }, evidence)).toMatchObject({
      status: 'error',
      reason: 'link.txt links outside the workspace',
    });
  });
  it('is an error in both modes when a link leads out of the workspace (dangling or not) or loops; the outside target is never looked at', () => {
    for (const exists of [true, false]) {
      for (const path of ['link.txt', 'linkdir', 'linkdir/secret.txt', 'dangling-out']) {
        expect(check('file', { path, exists }, evidence), `${path} exists: ${exists}`).toMatchObject({
          status: 'error',
          reason: `${path} links outside the workspace`,
        });
      }
      expect(check('file', { path: 'loop-a', exists }, evidence)).toMatchObject({
        status: 'error',
        reason: 'loop-a is a symlink loop (too many levels of symlinks)',
      });
    }
    // A link inside the workspace to a file that is not there: nothing exists at the path.
    expect(check('file', { path: 'dangling-in', exists: false }, evidence)).toMatchObject({ status: 'pass', reason: 'dangling-in does not exist' });
  });
  it('validates paths', () => {
    expect(invalid('file', { path: '../x' })).toContain('expected a path inside the workspace');
    expect(invalid('file', { path: '/etc/passwd' })).toContain('expected a path inside the workspace');
    expect(invalid('file', { path: 'a', exists: false, contains: 'x' })).toContain('exists: false cannot be combined');
  });
  it('refuses a contains or not_contains that every file holds (an empty list or text)', () => {
    for (const key of ['contains', 'not_contains']) {
      expect(invalid('file', { path: 'a', [key]: [] })).toContain(`at expect.checks[0].file.${key}: expected at least 1 item(s)`);
      expect(invalid('file', { path: 'a', [key]: '' })).toContain(`at expect.checks[0].file.${key}: expected a string of at least 1 character(s)`);
    }
    expect(invalid('file', { path: 'a', equals: '' })).toBeNull();
  });
});
