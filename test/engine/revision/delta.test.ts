import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { SourceDocument } from '../../../src/config/source.js';
import { applyDelta } from '../../../src/engine/revision/delta.js';
import { loadAgentBuild, revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { tempDir } from '../../helpers/temp-dir.js';

const agentFile = join(import.meta.dirname, '../../../fixtures/agents/support-bot.yaml');

/** Applies the delta file `text` to the support bot; the problems it is refused with (none when it applies). */
function deltaFileProblems(text: string): { file: string; problems: ConfigError[] } {
  const file = join(tempDir({ 'delta.yaml': text }), 'delta.yaml');
  const doc = SourceDocument.read(file);
  try {
    applyDelta(loadAgentBuild(agentFile), doc.value, doc);
  } catch (error) {
    return { file, problems: error instanceof ConfigErrors ? [...error.errors] : [error as ConfigError] };
  }
  return { file, problems: [] };
}

describe('applyDelta', () => {
  it('deep-merges set on a copy and never touches the original or its file', () => {
    const before = readFileSync(agentFile, 'utf8');
    const revision = loadAgentBuild(agentFile);
    const applied = applyDelta(revision, { set: { agent: { max_turns: 4, llm: { parameters: { temperature: 0.5 } } } } });
    expect(applied.build.agent?.max_turns).toBe(4);
    expect(applied.build.agent?.llm).toEqual({ provider: 'scripted', model: 'support-script', parameters: { temperature: 0.5, max_tokens: 1024 } });
    expect(revision.build.agent?.max_turns).toBe(8);
    expect(readFileSync(agentFile, 'utf8')).toBe(before);
    expect(applied.hash).toBe(revision.hash);
    expect(applied.deltaHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('refuses a __proto__ key in set, which would merge as a prototype past the strict validation', () => {
    const revision = loadAgentBuild(agentFile);
    // JSON.parse (and YAML) make __proto__ an own key, as a delta file would hold it.
    const delta = JSON.parse('{"set": {"agent": {"__proto__": {"max_turns": 1}}, "agent.__proto__.x": 1}}') as unknown;
    let error: unknown;
    try {
      applyDelta(revision, delta);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigErrors);
    expect((error as ConfigErrors).errors.map((problem) => problem.path)).toEqual(['set.agent.__proto__', 'set.agent.__proto__.x']);
    expect((error as Error).message).toContain('a key named "__proto__" cannot be set');
    expect(revision.build.agent?.max_turns).toBe(8);
  });

  it('replaces arrays and scalars rather than merging them', () => {
    const revision = loadAgentBuild(agentFile);
    const applied = applyDelta(revision, { set: { agent: { tools: [{ name: 'only', returns: 1 }] } } });
    expect(applied.build.agent?.tools?.map((t) => t.name)).toEqual(['only']);
  });

  it('removes by index and by name selector', () => {
    const revision = loadAgentBuild(agentFile);
    const applied = applyDelta(revision, { remove: ['agent.tools.0', 'agent.tools[name=send_email]'] });
    expect(applied.build.agent?.tools?.map((t) => t.name)).toEqual(['create_refund', 'delete_order']);
  });

  it('sets one place through a selector path', () => {
    const revision = loadAgentBuild(agentFile);
    const applied = applyDelta(revision, { set: { 'agent.tools[name=lookup_order].description': 'Find an order.' } });
    expect(applied.build.agent?.tools?.[0].description).toBe('Find an order.');
  });

  it('errors for a path that does not exist, naming what is there', () => {
    const revision = loadAgentBuild(agentFile);
    expect(() => applyDelta(revision, { remove: ['agent.tools[name=pause_schedule]'] }, 'delta.yaml')).toThrow(
      /delta\.yaml at remove\[0\]: path "agent\.tools\[name=pause_schedule\]" does not exist: no item named "pause_schedule" in agent\.tools \(names: lookup_order, create_refund, delete_order, send_email\)/,
    );
    expect(() => applyDelta(revision, { remove: ['agent.tools.9'] })).toThrow(/has 4 item\(s\), no index 9/);
    expect(() => applyDelta(revision, { remove: ['agent.nothing'] })).toThrow(/agent has no key "nothing"/);
  });

  it("walks only a build's own keys: Object.prototype's members do not exist", () => {
    const revision = loadAgentBuild(agentFile);
    for (const path of ['agent.toString', 'agent.constructor', 'constructor', 'agent.tools.0.valueOf']) {
      expect(() => applyDelta(revision, { remove: [path] }), path).toThrow(/does not exist: .* has no key/);
    }
    expect(() => applyDelta(revision, { set: { 'agent.constructor.prototype.x': 1 } })).toThrow(/agent has no key "constructor"/);
  });

  it('refuses a plain build object in place of a loaded revision, as invoke does', () => {
    expect(() => applyDelta({ id: 'x', agent: { name: 'y' } } as never, { set: {} })).toThrow(
      'applyDelta: expected a revision as its first argument: loadAgentBuild(file) or revisionFromValue(value) makes one (not the build object itself)',
    );
  });

  it('says a list has no names to select by, and to use an index', () => {
    const flow = loadAgentBuild(join(import.meta.dirname, '../../../fixtures/agents/config-fixer-flow.yaml'));
    expect(() => applyDelta(flow, { remove: ['flow.routers[name=read_config]'] })).toThrow(
      'path "flow.routers[name=read_config]" does not exist: the items of flow.routers have no "name" key to select by; address an item by its index (flow.routers.0)',
    );
    expect(() => applyDelta(flow, { remove: ['flow.components[name=fixer].toolset[name=edit_file]'] })).toThrow(
      /the items of flow\.components\[\d\]\.toolset have no "name" key/,
    );
  });

  it('validates the result and names the delta file and line as the source', () => {
    const { file, problems } = deltaFileProblems('set:\n  agent:\n    max_turns: zero\n');
    const caught = problems[0];
    expect(problems).toHaveLength(1);
    expect(caught).toBeInstanceOf(ConfigError);
    expect(caught?.file).toBe(file);
    expect(caught?.line).toBe(3);
    expect(caught?.path).toBe('set.agent.max_turns'); // where it sits in the delta file
    expect(caught?.message).toContain('after applying the delta: expected integer');
  });

  it('locates a problem a removal made at that remove entry, beside a valid set and among other entries', () => {
    const chained = tempDir({
      'agent.yaml': 'id: c\nagent:\n  name: C\n  tools:\n    - {name: t, returns: 1}\n    - {name: c, chain: {steps: [{tool: t}]}}\n',
      'alone.yaml': 'remove:\n  - agent.name\n',
      'with-set.yaml': 'set:\n  agent: {max_turns: 3}\nremove:\n  - agent.name\n',
      'several.yaml': 'set:\n  agent: {max_turns: 0}\nremove:\n  - agent.tools[name=t]\n  - agent.name\n',
    });
    const errorsOf = (file: string) => {
      const doc = SourceDocument.read(join(chained, file));
      try {
        applyDelta(loadAgentBuild(join(chained, 'agent.yaml')), doc.value, doc);
      } catch (error) {
        return (error instanceof ConfigErrors ? error.errors : [error as ConfigError]).map((one) => [one.line, one.path, one.expected]);
      }
      return [];
    };
    const noName = 'after applying the delta: removing "agent.name" leaves agent invalid: missing required key "name"';
    expect(errorsOf('alone.yaml')).toEqual([[2, 'remove[0]', noName]]);
    expect(errorsOf('with-set.yaml')).toEqual([[4, 'remove[0]', noName]]);
    expect(errorsOf('several.yaml')).toEqual([
      [2, 'set.agent.max_turns', 'after applying the delta: expected a number >= 1, got number 0'],
      [
        4,
        'remove[0]',
        'after applying the delta: removing "agent.tools[name=t]" leaves agent.tools[0].chain.steps[0].tool invalid: unknown tool "t"; expected an agent tool or a built-in; did you mean "c"?',
      ],
      [5, 'remove[1]', noName],
    ]);
  });

  it('blames a value set through a tool a removal moved on that set entry, and only what the removal broke on the remove entry', () => {
    const dir = tempDir({
      'agent.yaml': [
        'id: g',
        'agent:',
        '  name: G',
        '  tools:',
        '    - {name: spare, returns: 0}',
        '    - {name: archive, returns: 1}',
        '    - {name: looped, chain: {steps: [{tool: spare}]}}',
        '    - {name: chained, chain: {steps: [{tool: archive}]}}',
        '',
      ].join('\n'),
      'one.yaml': 'remove: ["agent.tools[name=archive]"]\nset:\n  "agent.tools[name=looped].chain": {max_steps: 0}\n',
      'two.yaml': 'remove: ["agent.tools[name=spare]", "agent.tools[name=archive]"]\nset:\n  "agent.tools[name=chained].chain": {max_steps: 0}\n',
    });
    const errorsOf = (file: string) => {
      const doc = SourceDocument.read(join(dir, file));
      try {
        applyDelta(loadAgentBuild(join(dir, 'agent.yaml')), doc.value, doc);
      } catch (error) {
        return (error instanceof ConfigErrors ? error.errors : [error as ConfigError]).map((one) => [one.line, one.path, one.expected]);
      }
      return [];
    };
    const maxSteps = 'after applying the delta: expected a number >= 1, got number 0';
    // Removing `archive` moves `looped` from tools[2] to tools[1]: its max_steps is still set's.
    expect(errorsOf('one.yaml')).toEqual([
      [
        1,
        'remove[0]',
        'after applying the delta: removing "agent.tools[name=archive]" leaves agent.tools[2].chain.steps[0].tool invalid: unknown tool "archive"; expected an agent tool or a built-in',
      ],
      [3, 'set.agent.tools[name=looped].chain.max_steps', maxSteps],
    ]);
    // Two removals move `chained` two places; each step left without its tool blames its own entry.
    expect(errorsOf('two.yaml')).toEqual([
      [
        1,
        'remove[0]',
        'after applying the delta: removing "agent.tools[name=spare]" leaves agent.tools[0].chain.steps[0].tool invalid: unknown tool "spare"; expected an agent tool or a built-in',
      ],
      [
        1,
        'remove[1]',
        'after applying the delta: removing "agent.tools[name=archive]" leaves agent.tools[1].chain.steps[0].tool invalid: unknown tool "archive"; expected an agent tool or a built-in',
      ],
      [3, 'set.agent.tools[name=chained].chain.max_steps', maxSteps],
    ]);
  });

  it('blames each step left without its tool on the removal that took that tool, though what the step is told differs once both are gone', () => {
    // With t1 and t2 both gone a step is told "did you mean t3"; with only its own tool gone, another name.
    const dir = tempDir({
      'agent.yaml': [
        'id: f',
        'agent:',
        '  name: F',
        '  tools:',
        '    - {name: echo, builtin: echo}',
        '    - {name: t1, parameters: {type: object, properties: {id: {type: string}}}, returns: 1}',
        '    - {name: t2, parameters: {type: object, properties: {id: {type: string}}}, returns: 2}',
        '    - {name: t3, parameters: {type: object, properties: {id: {type: string}}}, returns: 3}',
        'flow:',
        '  entry_point: c1',
        '  components:',
        '    - {name: c1, type: deterministic_step, tool_name: echo, inputs: [{literal: "x", as: text}]}',
        '    - {name: c2, type: deterministic_step, tool_name: t1, inputs: [{literal: "1", as: id}]}',
        '    - {name: c3, type: deterministic_step, tool_name: t2, inputs: [{literal: "2", as: id}]}',
        '  routers:',
        '    - {from: c1, to: c2}',
        '    - {from: c2, to: c3}',
        '    - {from: c3, to: end}',
        '',
      ].join('\n'),
      'names.yaml': 'remove:\n  - agent.tools[name=t1]\n  - agent.tools[name=t2]\n',
      'reversed.yaml': 'remove:\n  - agent.tools[name=t2]\n  - agent.tools[name=t1]\n',
      'indexes.yaml': 'remove:\n  - agent.tools.2\n  - agent.tools.1\n',
    });
    const blamed = (file: string) => {
      const doc = SourceDocument.read(join(dir, file));
      try {
        applyDelta(loadAgentBuild(join(dir, 'agent.yaml')), doc.value, doc);
      } catch (error) {
        return (error as ConfigErrors).errors.map(
          (one) => `${one.path}: ${/leaves (\S+) invalid: unknown tool "(\w+)"/.exec(one.expected)?.slice(1).join(' ')}`,
        );
      }
      return [];
    };
    const t1 = 'flow.components[1].tool_name t1';
    const t2 = 'flow.components[2].tool_name t2';
    expect(blamed('names.yaml').sort()).toEqual([`remove[0]: ${t1}`, `remove[1]: ${t2}`]);
    expect(blamed('reversed.yaml').sort()).toEqual([`remove[0]: ${t2}`, `remove[1]: ${t1}`]);
    expect(blamed('indexes.yaml').sort()).toEqual([`remove[0]: ${t2}`, `remove[1]: ${t1}`]);
  });

  it('names a cycle the delta closed at the set entry that wrote its closing call, not at the build path where the cycle starts', () => {
    const dir = tempDir({
      'agent.yaml': [
        'id: c',
        'agent:',
        '  name: C',
        '  tools:',
        '    - {name: spare, returns: 0}',
        '    - {name: a, chain: {steps: [{tool: b}]}}',
        '    - {name: b, chain: {steps: [{tool: echo, inputs: {text: x}}]}}',
        '',
      ].join('\n'),
      'closes.yaml': 'set:\n  "agent.tools[name=b].chain.steps[0]": {tool: a, inputs: {}}\n',
      'whole.yaml': 'set:\n  "agent.tools[name=b].chain": {steps: [{tool: a}]}\n',
      // The later entry closes a -> b -> a; a -> a is its own, its only call written there.
      'two.yaml': 'set:\n  "agent.tools[name=b].chain.steps[0]": {tool: a, inputs: {}}\n  "agent.tools[name=a].chain": {steps: [{tool: a}, {tool: b}]}\n',
      // Removing `spare` moves a and b up a place: the cycle is still set's.
      'moved.yaml': 'set:\n  "agent.tools[name=b].chain.steps[0]": {tool: a, inputs: {}}\nremove:\n  - agent.tools[name=spare]\n',
    });
    const cycles = (file: string) => {
      const doc = SourceDocument.read(join(dir, file));
      try {
        applyDelta(loadAgentBuild(join(dir, 'agent.yaml')), doc.value, doc);
      } catch (error) {
        return (error instanceof ConfigErrors ? error.errors : [error as ConfigError]).map(
          (one) => `${one.line}:${one.column} ${one.path}: ${/through ([\w >-]+);/.exec(one.expected)?.[1]}`,
        );
      }
      return [];
    };
    expect(cycles('closes.yaml')).toEqual(['2:48 set.agent.tools[name=b].chain.steps[0].tool: a -> b -> a']);
    expect(cycles('whole.yaml')).toEqual(['2:48 set.agent.tools[name=b].chain.steps[0].tool: a -> b -> a']);
    expect(cycles('two.yaml')).toEqual([
      '3:48 set.agent.tools[name=a].chain.steps[0].tool: a -> a',
      '3:59 set.agent.tools[name=a].chain.steps[1].tool: a -> b -> a',
    ]);
    expect(cycles('moved.yaml')).toEqual(['2:48 set.agent.tools[name=b].chain.steps[0].tool: a -> b -> a']);
  });

  it('names a cycle set closes at its closing call though a removal made the build otherwise valid, and one closed by renames at the rename', () => {
    const dir = tempDir({
      'agent.yaml': [
        'id: c',
        'agent:',
        '  name: C',
        '  tools:',
        '    - {name: finish, returns: 1}',
        '    - {name: lookup, returns: 2}',
        '    - {name: ch, chain: {steps: [{tool: lookup}, {tool: finish}]}}',
        '    - {name: pl, plan: {steps: [{tools: [{name: ch}]}]}}',
        '',
      ].join('\n'),
      // After `set` alone lookup has chain and returns: no cycle is looked for there.
      'set-remove.yaml': 'set:\n  "agent.tools[name=lookup]": {chain: {steps: [{tool: pl}]}}\nremove:\n  - agent.tools[name=lookup].returns\n',
      // ch's call to lookup reaches pl once pl takes its name: the second rename closes ch -> lookup -> ch.
      'renames.yaml': 'set:\n  "agent.tools[name=lookup].name": zz\n  "agent.tools[name=pl].name": lookup\n',
    });
    const cycles = (file: string) => {
      const doc = SourceDocument.read(join(dir, file));
      try {
        applyDelta(loadAgentBuild(join(dir, 'agent.yaml')), doc.value, doc);
      } catch (error) {
        return (error instanceof ConfigErrors ? error.errors : [error as ConfigError]).map((one) => `${one.line} ${one.path}: ${one.expected}`);
      }
      return [];
    };
    const through = (cycle: string) => `${cycle}; a chain or plan must not call itself, directly or through other tools`;
    expect(cycles('set-remove.yaml')).toEqual([
      `2 set.agent.tools[name=lookup].chain.steps[0].tool: after applying the delta: ${through('"lookup" calls itself through lookup -> pl -> ch -> lookup')}`,
    ]);
    expect(cycles('renames.yaml')).toEqual([
      `3 set.agent.tools[name=pl].name: after applying the delta: ${through('"ch" calls itself through ch -> lookup -> ch')}`,
    ]);
  });

  it('blames a problem set made where no entry wrote on the entry whose leaving out leaves that place sound, saying where the build broke', () => {
    const dir = tempDir({
      'agent.yaml': [
        'id: f',
        'agent:',
        '  name: F',
        '  tools:',
        '    - {name: echo, builtin: echo}',
        '    - {name: spare, returns: 0}',
        'flow:',
        '  entry_point: a',
        '  components:',
        '    - {name: a, type: deterministic_step, tool_name: echo, inputs: [{literal: x, as: text}]}',
        '    - {name: b, type: deterministic_step, tool_name: echo, inputs: [{literal: y, as: text}]}',
        '  routers:',
        '    - {from: a, to: b}',
        '    - {from: b, to: end}',
        '',
      ].join('\n'),
      // The entry point is the third entry; the first two, and the removal, break nothing.
      'entry.yaml': 'set:\n  agent.name: z\n  agent: {max_turns: 3}\n  flow.entry_point: b\nremove:\n  - agent.tools[name=spare]\n',
      // Either entry alone leaves a unreached: no one entry is to blame, and the build's path is said.
      'both.yaml': 'set:\n  flow: {entry_point: b}\n  flow.entry_point: b\n',
    });
    const errorsOf = (file: string) => {
      const doc = SourceDocument.read(join(dir, file));
      try {
        applyDelta(loadAgentBuild(join(dir, 'agent.yaml')), doc.value, doc);
      } catch (error) {
        return (error instanceof ConfigErrors ? error.errors : [error as ConfigError]).map((one) => [one.line, one.path, one.expected]);
      }
      return [];
    };
    const unreached = 'component "a" is never reached: no router from the entry point "b" leads to it';
    expect(errorsOf('entry.yaml')).toEqual([
      [4, 'set.flow.entry_point', `after applying the delta: setting "flow.entry_point" leaves flow.components[0] invalid: ${unreached}`],
    ]);
    // No one entry is to blame: said at `set`, naming the build's path, not at a line set did not write.
    expect(errorsOf('both.yaml')).toEqual([[2, 'set', `after applying the delta: set as a whole leaves flow.components[0] invalid: ${unreached}`]]);
  });

  it('blames a removal for a problem it makes where set alone makes another (a router removed from the component a new entry point leaves unreached)', () => {
    const dir = tempDir({
      'flow.yaml': [
        'id: f',
        'agent:',
        '  name: F',
        '  tools: [{name: echo, builtin: echo}]',
        'flow:',
        '  entry_point: a',
        '  components:',
        '    - {name: a, type: deterministic_step, tool_name: echo, inputs: [{literal: x, as: text}]}',
        '    - {name: b, type: deterministic_step, tool_name: echo, inputs: [{literal: y, as: text}]}',
        '    - {name: c, type: deterministic_step, tool_name: echo, inputs: [{literal: z, as: text}]}',
        '  routers: [{from: a, to: b}, {from: b, to: c}, {from: c, to: end}]',
        '',
      ].join('\n'),
      // set alone leaves a unreached at flow.components[0]; the removal leaves it without a router there.
      'delta.yaml': 'set:\n  flow.entry_point: b\nremove: [flow.routers.0]\n',
    });
    const doc = SourceDocument.read(join(dir, 'delta.yaml'));
    let errors: readonly ConfigError[] = [];
    try {
      applyDelta(loadAgentBuild(join(dir, 'flow.yaml')), doc.value, doc);
    } catch (error) {
      errors = error instanceof ConfigErrors ? error.errors : [error as ConfigError];
    }
    expect(errors.map((error) => [error.line, error.path, error.expected])).toEqual([
      [
        3,
        'remove[0]',
        'after applying the delta: removing "flow.routers.0" leaves flow.components[0] invalid: component "a" has no router; add {from: a, to: <component or end>}',
      ],
    ]);
  });

  it("reports a missing skill ref it sets beside the merged build's other problems, the ref relative to the delta file", () => {
    const { file, problems: errors } = deltaFileProblems('set:\n  agent:\n    max_turns: zero\n    skills: [{ref: ./skills/nope}]\n');
    expect(errors.map((error) => [error.line, error.path])).toEqual([
      [3, 'set.agent.max_turns'],
      [4, 'set.agent.skills[0].ref'],
    ]);
    expect(errors[1].message).toContain(`skill folder "${join(dirname(file), 'skills/nope')}" does not exist`);
  });

  it('refuses two paths naming one item instead of removing its neighbour', () => {
    const revision = loadAgentBuild(agentFile);
    expect(() => applyDelta(revision, { remove: ['agent.tools[name=lookup_order]', 'agent.tools[name=lookup_order]'] }, 'd.yaml')).toThrow(
      /d\.yaml at remove\[1\]: "agent\.tools\[name=lookup_order\]" names the same item as remove\[0\]/,
    );
    expect(() => applyDelta(revision, { remove: ['agent.tools[name=create_refund]', 'agent.tools.1'] })).toThrow(/names the same item as remove\[0\]/);
    const applied = applyDelta(revision, { remove: ['agent.tools.3', 'agent.tools.0', 'agent.llm.parameters.temperature'] });
    expect(applied.build.agent?.tools?.map((t) => t.name)).toEqual(['create_refund', 'delete_order']);
    expect(applied.build.agent?.llm?.parameters).toEqual({ max_tokens: 1024 });
  });

  it('refuses malformed paths rather than guessing', () => {
    const revision = loadAgentBuild(agentFile);
    for (const path of ['agent..tools', 'agent.max_turns.', '.agent', 'agent.tools[01]', 'agent.tools[x]', 'agent.tools[name=a', '']) {
      expect(() => applyDelta(revision, { remove: [path] }), path).toThrow(/cannot parse path|expected a string of at least 1/);
    }
    expect(() => applyDelta(revision, { remove: ['agent.tools.01'] })).toThrow(/is a list, "01" is not an index/);
  });

  it("reports every bad set path, remove path and the merged build's problems in one pass", () => {
    const dir = tempDir({
      'delta.yaml': 'set:\n  agent: {max_turns: "x"}\n  "agent.tools[name=nope].description": y\nremove: [agent.tools.9, "agent.tools[name=zz]"]\n',
    });
    const doc = SourceDocument.read(join(dir, 'delta.yaml'));
    let message = '';
    try {
      applyDelta(loadAgentBuild(agentFile), doc.value, doc);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    const paths = message.split('\n').map((line) => / at ([^:]+):/.exec(line)?.[1]);
    expect(paths).toEqual(['set.agent.max_turns', 'set.agent.tools[name=nope].description', 'remove[0]', 'remove[1]']);
  });

  it('names a problem in a value a path key wrote by that key, in the delta, not by the build path it resolved to', () => {
    // Line 2 writes into create_refund (agent.tools[1]) through a path key; line 3 a plain key;
    // line 4 a path key whose value replaces a list. Each problem is named where it is written.
    const { problems: found } = deltaFileProblems(
      'set:\n  "agent.tools[name=create_refund]": {permision: ask}\n  agent: {max_turns: "5"}\n  "agent.tools[name=lookup_order].parameters.required": [1]\n',
    );
    const problems = found.map((problem) => `${problem.line}:${problem.column} ${problem.path}`);
    expect(problems).toEqual([
      '2:50 set.agent.tools[name=create_refund].permision',
      '3:22 set.agent.max_turns',
      '4:58 set.agent.tools[name=lookup_order].parameters.required[0]',
    ]);
  });

  it('reads a set key as the path it is, and quotes a key under it that holds a dot, as any such key is quoted', () => {
    const { problems } = deltaFileProblems(
      'set:\n  "agent.tools[name=create_refund]": {"x.y": 1}\n  "agent.tools[name=nope].description": y\n  "agent..x": 1\n',
    );
    // A key that does not read as a path (an empty step) is quoted too.
    expect(problems.map((problem) => `${problem.line} ${problem.path}`)).toEqual([
      '2 set.agent.tools[name=create_refund]["x.y"]',
      '3 set.agent.tools[name=nope].description',
      '4 set["agent..x"]',
    ]);
  });

  it('names the later of two set entries that wrote one place, as the later one is what applied', () => {
    const dir = tempDir({ 'delta.yaml': 'set:\n  agent: {max_turns: 3}\n  "agent.max_turns": "x"\n' });
    const doc = SourceDocument.read(join(dir, 'delta.yaml'));
    expect(() => applyDelta(loadAgentBuild(agentFile), doc.value, doc)).toThrow(
      /delta\.yaml:3:22 at set\.agent\.max_turns: after applying the delta: expected integer/,
    );
  });

  it("an unknown key or a wrong-typed remove item hides neither a path's bad syntax nor a __proto__ key", () => {
    const dir = tempDir({
      'a.delta.yaml': 'remove:\n  - "agent..x"\n  - "agent.tools[nme=x]"\nsett: 1\n',
      'b.delta.yaml': 'set:\n  "__proto__": {x: 1}\nremove:\n  - 5\n  - "agent..x"\n',
    });
    const problems = (file: string) => {
      const doc = SourceDocument.read(join(dir, file));
      try {
        applyDelta(loadAgentBuild(agentFile), doc.value, doc);
      } catch (error) {
        return (error as ConfigErrors).errors.map((problem) => `${problem.line}:${problem.column} ${problem.path}: ${problem.expected.slice(0, 30)}`);
      }
      return [];
    };
    expect(problems('a.delta.yaml')).toEqual([
      '2:5 remove[0]: cannot parse path "agent..x": ',
      '3:5 remove[1]: cannot parse path "agent.tools',
      '4:1 sett: unknown key "sett" (did you me',
    ]);
    expect(problems('b.delta.yaml')).toEqual([
      '2:3 set.__proto__: a key named "__proto__" cannot',
      '4:5 remove[0]: expected string, got number 5',
      '5:5 remove[1]: cannot parse path "agent..x": ',
    ]);
  });

  it('a __proto__ key hides none of the rest of the delta: it is applied without it and checked', () => {
    const dir = tempDir({ 'c.delta.yaml': 'set:\n  agent: {max_turns: "4"}\n  "__proto__": {x: 1}\nremove:\n  - agent.tools.99\n  - "agent..x"\n' });
    const doc = SourceDocument.read(join(dir, 'c.delta.yaml'));
    const revision = loadAgentBuild(agentFile);
    let error: unknown;
    try {
      applyDelta(revision, doc.value, doc);
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigErrors).errors.map((problem) => `${problem.line} ${problem.path}`)).toEqual([
      '2 set.agent.max_turns',
      '3 set.__proto__',
      '5 remove[0]',
      '6 remove[1]',
    ]);
    expect(Object.getPrototypeOf(revision.build)).toBe(Object.prototype);
  });

  it('says a partial agent.llm on a build without one must give provider and model, the default not being merged into', () => {
    const revision = revisionFromValue({ id: 'mini', agent: { name: 'Mini' } }, 'mini');
    const problem = () => applyDelta(revision, { set: { agent: { llm: { parameters: { temperature: 0.5 } } } } });
    expect(problem).toThrow(
      /^<delta> at set\.agent\.llm: after applying the delta: the build has no agent\.llm \(it uses the default model, scripted\/scripted\), so a delta that sets part of agent\.llm must give agent\.llm\.provider and agent\.llm\.model too$/,
    );
    expect(applyDelta(revision, { set: { agent: { llm: { provider: 'scripted', model: 'm2' } } } }).build.agent?.llm).toMatchObject({ model: 'm2' });
    // A build with its own llm still says which key is missing.
    const own = revisionFromValue({ id: 'mini', agent: { name: 'Mini', llm: { provider: 'scripted', model: 's' } } }, 'mini');
    expect(() => applyDelta(own, { remove: ['agent.llm.model'] })).toThrow(/missing required key "model"/);
  });

  it('rejects unknown delta keys', () => {
    expect(() => applyDelta(loadAgentBuild(agentFile), { add: {} })).toThrow(/unknown key "add"; expected one of: set, remove/);
  });

  it('hashes deltas applied in turn together', () => {
    const revision = loadAgentBuild(agentFile);
    const once = applyDelta(revision, { set: { agent: { max_turns: 2 } } });
    const twice = applyDelta(once, { set: { agent: { max_turns: 3 } } });
    expect(twice.deltaHash).not.toBe(once.deltaHash);
    expect(applyDelta(once, {}).deltaHash).toBe(once.deltaHash);
  });

  it('gives a delta that changes nothing no hash, however it is spelt', () => {
    const revision = loadAgentBuild(agentFile);
    for (const delta of [{}, { set: {}, remove: [] }, { set: { agent: { name: revision.build.agent?.name } } }]) {
      const applied = applyDelta(revision, delta);
      expect(applied.deltaHash, JSON.stringify(delta)).toBeNull();
      expect(applied.deltas, JSON.stringify(delta)).toBeUndefined();
    }
  });

  it('hashes a delta that sets a default the build leaves unset: the build differs, and an http engine is sent the delta', () => {
    const revision = revisionFromValue({ id: 'd', agent: { name: 'D', llm: { provider: 'scripted', model: 's' } } }, 'd');
    // 10 is the engine's own max_turns default, so the resolved config reads the same; the build does not.
    const applied = applyDelta(revision, { set: { agent: { max_turns: 10 } } });
    expect(applied.build.agent?.max_turns).toBe(10);
    expect(applied.deltaHash).toMatch(/^[0-9a-f]{16}$/);
    expect(applied.deltas).toEqual([{ set: { agent: { max_turns: 10 } } }]);
  });
});
