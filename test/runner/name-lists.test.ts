import { describe, expect, it } from 'vitest';
import { spreadNameLists } from '../../src/runner/commands/name-lists.js';
import { tempDir } from '../helpers/temp-dir.js';

const run = (...args: string[]) => ['node', 'agentcheck', 'run', ...args];

describe('spreadNameLists: several names after one --variant or --tag', () => {
  const folder = () => tempDir({ 'scenarios/a.scenario.yaml': 'name: a\n', lean: '' });

  it('gives each name after the flag a flag of its own, up to the first path or flag', () => {
    const dir = folder();
    expect(spreadNameLists(run('--variant', 'base', 'terse', 'scenarios', '--repeat', '2'), dir)).toEqual(
      run('--variant', 'base', '--variant', 'terse', 'scenarios', '--repeat', '2'),
    );
    expect(spreadNameLists(run('scenarios', '--tag', 'smoke', 'refunds', '--variant=terse', 'wordy'), dir)).toEqual(
      run('scenarios', '--tag', 'smoke', '--tag', 'refunds', '--variant=terse', '--variant', 'wordy'),
    );
  });

  it('keeps as paths the words that exist on disk, hold a folder separator or a file suffix', () => {
    const dir = folder();
    // `lean` is a file in the folder: a path, though it reads like a name.
    expect(spreadNameLists(run('--variant', 'base', 'lean', 'other'), dir)).toEqual(run('--variant', 'base', 'lean', 'other'));
    expect(spreadNameLists(run('--variant', 'base', 'missing/', 'x.scenario.yaml'), dir)).toEqual(run('--variant', 'base', 'missing/', 'x.scenario.yaml'));
  });

  it('leaves words after a path, after another flag, after --, and other commands alone', () => {
    const dir = folder();
    expect(spreadNameLists(run('scenarios', 'terse'), dir)).toEqual(run('scenarios', 'terse'));
    expect(spreadNameLists(run('--out', 'out', 'terse'), dir)).toEqual(run('--out', 'out', 'terse'));
    expect(spreadNameLists(run('--variant', 'base', '--', 'terse'), dir)).toEqual(run('--variant', 'base', '--', 'terse'));
    const validate = ['node', 'agentcheck', 'validate', '--variant', 'base', 'terse'];
    expect(spreadNameLists(validate, dir)).toEqual(validate);
  });
});
