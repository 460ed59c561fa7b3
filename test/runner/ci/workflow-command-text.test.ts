import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/runner/commands/cli-io.js';
import { commandFreeText, withCommandFreeStderr } from '../../../src/runner/ci/workflow-command-text.js';

describe('stderr text on GitHub Actions', () => {
  it('encodes a line break before a workflow command and removes control characters, leaving other lines', () => {
    expect(commandFreeText('a: oops\n::warning title=x::y\n')).toBe('a: oops%0A::warning title=x::y\n');
    // A CR that ends no line is shown (printable), so it can neither start a command nor print over the line.
    expect(commandFreeText('a\r\n  ##[error]b\rc\n')).toBe('a%0D%0A  ##%5Berror]b<U+000D>c\n');
    // `##[name]` runs wherever it sits in a line, so it is broken wherever it sits.
    expect(commandFreeText('x ##[add-mask]hunter2')).toBe('x ##%5Badd-mask]hunter2');
    // Text that begins a line may not begin a command; text in mid-line may hold `::`.
    expect(commandFreeText('::error::b', true)).toBe(':%3Aerror::b');
    expect(commandFreeText('  ::error::b', true)).toBe('  :%3Aerror::b');
    expect(commandFreeText('a ::b', true)).toBe('a ::b');
    expect(commandFreeText('::error::b')).toBe('::error::b');
    expect(commandFreeText('first\nsecond line\n')).toBe('first\nsecond line\n');
    expect(commandFreeText('x\u001b[31m\u000b\n::add-mask::s')).toBe('x\n::add-mask::s'.replace('\n', '%0A'));
  });

  it('wraps stderr only when GITHUB_ACTIONS=true', () => {
    const sink = new PassThrough();
    const io: CommandIO = { stdout: new PassThrough(), stderr: sink, cwd: '/', env: { GITHUB_ACTIONS: 'true', AGENTCHECK_GITHUB: 'off' }, isTTY: false };
    const stderr = withCommandFreeStderr(io).stderr;
    stderr.write('a\n::error::b\n');
    expect(String(sink.read())).toBe('a%0A::error::b\n');
    // A write after a line break begins a line; one after text does not.
    stderr.write('::warning::c');
    expect(String(sink.read())).toBe(':%3Awarning::c');
    stderr.write(' ::notice::d\n');
    expect(String(sink.read())).toBe(' ::notice::d\n');
    const plain = { ...io, env: {} };
    expect(withCommandFreeStderr(plain)).toBe(plain);
  });
});
