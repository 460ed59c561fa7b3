import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { loadAgentBuild } from '../../../src/engine/revision/load-build.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { configErrorOf } from '../../helpers/config-error.js';

/** Loads YAML text as an agent file and returns the ConfigError it raises. */
function errorOf(yaml: string): ConfigError {
  const dir = tempDir({ 'agent.yaml': yaml });
  return configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml')));
}

const base = `id: bot
agent:
  name: Bot
  tools:
    - name: lookup
      description: Look up.
      returns: {ok: true}
`;
/** `base` with the built-in run_command, which `commands.allow` is for. */
const withRunCommand = `${base}    - {name: run_command, description: Run., builtin: run_command}\n`;

describe('loadAgentBuild', () => {
  it('loads the example build with defaults left unset', () => {
    const revision = loadAgentBuild(join(import.meta.dirname, '../../../fixtures/agents/support-bot.yaml'));
    expect(revision.build.id).toBe('support-bot');
    expect(revision.build.agent?.tools?.map((t) => t.name)).toEqual(['lookup_order', 'create_refund', 'delete_order', 'send_email']);
    expect(revision.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('reports an unknown key with file, line, column and path', () => {
    const error = errorOf(`${base}  max_turn: 4\n`);
    expect(error.line).toBe(8);
    expect(error.column).toBe(3);
    expect(error.path).toBe('agent.max_turn');
    expect(error.message).toMatch(/agent\.yaml:8:3 at agent\.max_turn: unknown key "max_turn" \(did you mean "max_turns"\?\); expected one of: .*max_turns/);
  });

  it('reports a wrong type instead of falling back to a default', () => {
    const error = errorOf(`${base}  max_turns: "four"\n`);
    expect(error.path).toBe('agent.max_turns');
    expect(error.line).toBe(8);
    expect(error.expected).toBe('expected integer, got string "four"');
  });

  it('rejects an unknown provider naming the allowed ones', () => {
    const error = errorOf(`${base}  llm: {provider: gpt, model: x}\n`);
    expect(error.path).toBe('agent.llm.provider');
    expect(error.expected).toContain('"scripted" | "openai" | "anthropic"');
  });

  it('rejects bad ids and tool names', () => {
    expect(errorOf(base.replace('id: bot', 'id: Bot!')).path).toBe('id');
    const badTool = errorOf(base.replace('name: lookup', 'name: "look up"'));
    expect(badTool.path).toBe('agent.tools[0].name');
    expect(badTool.line).toBe(5);
  });

  it('rejects duplicate tool names, pointing at the second', () => {
    const error = errorOf(`${base}    - name: lookup\n      returns: 1\n`);
    expect(error.path).toBe('agent.tools[1].name');
    expect(error.line).toBe(8);
    expect(error.message).toContain('duplicate tool name "lookup" (already used by agent.tools[0])');
  });

  it('reports a duplicate tool name also when the first tool has a problem of its own', () => {
    const dir = tempDir({
      'agent.yaml': 'id: d\nagent:\n  name: D\n  tools: [{name: h, description: x, read_only: "yes", returns: 1}, {name: h, description: y, returns: 1}]\n',
    });
    const error = configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml'))) as ConfigErrors;
    expect(error.errors.map((e) => `${e.line}:${e.column} ${e.path}: ${e.expected}`)).toEqual([
      '4:48 agent.tools[0].read_only: expected boolean, got string "yes"',
      '4:75 agent.tools[1].name: duplicate tool name "h" (already used by agent.tools[0])',
    ]);
  });

  it('requires exactly one implementation key per tool', () => {
    expect(errorOf(base.replace('      returns: {ok: true}\n', '')).message).toContain('needs exactly one implementation key');
    expect(errorOf(base.replace('      returns: {ok: true}\n', '      returns: 1\n      builtin: echo\n')).message).toContain(
      'has builtin and returns; expected exactly one implementation key',
    );
  });

  it('refuses a required argument that properties lacks and additionalProperties: false refuses, at parameters.required', () => {
    const closed = '      parameters: {type: object, properties: {x: {type: string}}, required: [x, y], additionalProperties: false}\n      returns: 1\n';
    const error = errorOf(base.replace('      returns: {ok: true}\n', closed));
    expect(error.path).toBe('agent.tools[0].parameters.required[1]');
    expect(error.message).toContain('"y" is required but not in properties, and additionalProperties: false refuses it');
    // Open parameters may require a name properties does not list: JSON Schema allows it.
    const open = '      parameters: {type: object, properties: {x: {type: string}}, required: [y]}\n      returns: 1\n';
    const dir = tempDir({ 'open.yaml': base.replace('      returns: {ok: true}\n', open) });
    expect(loadAgentBuild(join(dir, 'open.yaml')).build.agent?.tools?.[0].parameters?.required).toEqual(['y']);
  });

  it('rejects an invalid parameters schema', () => {
    const error = errorOf(
      base.replace('      returns: {ok: true}\n', '      parameters: {type: object, properties: {a: {type: nonsense}}}\n      returns: 1\n'),
    );
    expect(error.path).toBe('agent.tools[0].parameters.properties.a.type');
    expect(error.line).toBe(7);
    expect(error.expected).toMatch(/^expected one of "array" \| .* \| "string", got string "nonsense"$/);
  });

  it("reports every problem of a tool's parameters schema, each at the bad value inside it", () => {
    const dir = tempDir({
      'b4.yaml': [
        'id: b4',
        'agent:',
        '  name: B',
        '  tools:',
        '    - name: p',
        '      parameters:',
        '        type: object',
        '        properties:',
        '          a: {type: strin}',
        '          b: {type: intger}',
        '        requried: [a]',
        '      returns: 1',
        '',
      ].join('\n'),
    });
    const error = configErrorOf(() => loadAgentBuild(join(dir, 'b4.yaml'))) as ConfigErrors;
    expect(error.errors.map((e) => `${e.line}:${e.column} ${e.path}: ${e.expected.replace(/ \| .* \| /, ' ... ').slice(0, 70)}`)).toEqual([
      '9:21 agent.tools[0].parameters.properties.a.type: expected one of "array" ... "string", got string "strin" (did you mean',
      '10:21 agent.tools[0].parameters.properties.b.type: expected one of "array" ... "string", got string "intger" (did you mea',
      '11:9 agent.tools[0].parameters.requried: unknown JSON Schema keyword "requried" (did you mean "required"?): val',
    ]);
  });

  it('refuses a default that does not fit its own schema, at the default, for every tool kind and every default in one pass', () => {
    const yaml = `id: bot
agent:
  name: Bot
  tools:
    - name: d
      description: d
      parameters:
        type: object
        $defs: {size: {type: integer, minimum: 1}}
        properties:
          x: {type: integer, default: "ten"}
          opts: {type: object, properties: {sort: {enum: [date, name], default: size}}}
          n: {$ref: "#/$defs/size", default: 0}
          ok: {type: string, default: fine}
      returns: 1
    - name: c
      description: c
      parameters: {type: object, properties: {q: {type: string, format: date, default: [a]}}}
      chain: {steps: [{tool: echo, inputs: {text: hi}}]}
`;
    const error = errorOf(yaml);
    const problems = 'errors' in error ? (error.errors as ConfigError[]) : [error];
    expect(problems.map((problem) => [problem.path, problem.line, problem.expected])).toEqual([
      ['agent.tools[0].parameters.properties.x.default', 11, 'default does not fit its own schema: expected integer, got string "ten"'],
      [
        'agent.tools[0].parameters.properties.opts.properties.sort.default',
        12,
        'default does not fit its own schema: expected one of "date" | "name", got string "size"',
      ],
      ['agent.tools[0].parameters.properties.n.default', 13, 'default does not fit its own schema: expected a number >= 1, got number 0'],
      ['agent.tools[1].parameters.properties.q.default', 18, 'default does not fit its own schema: expected string, got an array'],
    ]);
  });

  it('refuses a commands.allow entry no argv[0] can be, at the entry, and keeps program names and paths', () => {
    const base = withRunCommand;
    const error = errorOf(`${base}  commands: {allow: [ls, "git status", "", " cat", "*", "git*"]}\n`);
    const problems = 'errors' in error ? (error.errors as ConfigError[]) : [error];
    const quoted = "expected a program name or path (an entry is compared with run_command's argv[0] as written), got";
    expect(problems.map((problem) => [problem.path, problem.expected])).toEqual([
      [
        'agent.commands.allow[1]',
        `${quoted} "git status"; commands.allow lists programs (argv[0]), not command lines, so this entry matches no call ("git" would allow every call of "git", whatever its arguments)`,
      ],
      ['agent.commands.allow[2]', `${quoted} "", which no call's argv[0] is`],
      ['agent.commands.allow[3]', `${quoted} " cat"; no argv[0] has spaces around it: write "cat"`],
      ['agent.commands.allow[4]', `${quoted} "*"; allow lists program names exactly; * matches nothing (list each program: ls, cat, git)`],
      ['agent.commands.allow[5]', `${quoted} "git*"; allow lists program names exactly; * matches nothing (list each program: ls, cat, git)`],
    ]);
    const dir = tempDir({ 'agent.yaml': `${base}  commands: {allow: [ls, /usr/bin/git, "/opt/My Tools/run"]}\n` });
    expect(loadAgentBuild(join(dir, 'agent.yaml')).build.agent?.commands?.allow).toEqual(['ls', '/usr/bin/git', '/opt/My Tools/run']);
  });

  it('keeps commands on a build without a run_command tool of its own (flow steps call the built-in by name; a variant may remove the tool)', () => {
    const dir = tempDir({ 'agent.yaml': `${base}  commands: {allow: [ls]}\n` });
    expect(loadAgentBuild(join(dir, 'agent.yaml')).build.agent?.commands?.allow).toEqual(['ls']);
  });

  it("refuses a command tool's empty program and an allow_env entry that is no variable name, each at its entry", () => {
    const tool = '    - {name: f, description: f, parameters: {type: object}, command: {argv: [" ", x], allow_env: [HOME, "A=B", "1X", MY_VAR_2]}}\n';
    const error = errorOf(`${base}${tool}`);
    const problems = 'errors' in error ? (error.errors as ConfigError[]) : [error];
    const name = 'expected an environment variable name (letters, digits and _, not starting with a digit), got';
    expect(problems.map((problem) => [problem.path, problem.expected])).toEqual([
      ['agent.tools[1].command.argv[0]', 'expected the program to run (argv[0]: a name on PATH or a path), got " ", which no process can be'],
      [
        'agent.tools[1].command.allow_env[1]',
        `${name} "A=B"; allow_env names variables of agentcheck's environment, whose values pass to the command as they are set there`,
      ],
      ['agent.tools[1].command.allow_env[2]', `${name} "1X"`],
    ]);
  });

  it("a bad value of a command or http tool hides none of the tool's program, templates, allow_env, url or headers", () => {
    const tools = [
      '    - name: c1',
      '      parameters: {type: object, properties: {x: {type: string}}}',
      '      command: {argv: ["", "{{ args.y }}", "{{ env.HOME }}", "{{ args.x | path }}"], allow_env: ["A=B", 5, OK_NAME], max_output_bytes: 0}',
      '    - name: h1',
      '      parameters: {type: object, properties: {q: {type: string}}}',
      '      http: {url: "https://api.example.com/{{ args.z }}", timeout_ms: 0, headers: {A: 5, B: "{{ env.1 }}"}}',
      '',
    ].join('\n');
    const error = errorOf(`${base}${tools}`);
    const problems = 'errors' in error ? (error.errors as ConfigError[]) : [error];
    expect(problems.map((problem) => `${problem.path}: ${problem.expected}`)).toEqual([
      'agent.tools[1].command.argv[0]: expected the program to run (argv[0]: a name on PATH or a path), got "", which no process can be',
      'agent.tools[1].command.argv[1]: template "{{ args.y }}" names no parameter of the tool; expected one of: x; did you mean "x"?',
      expect.stringMatching(/^agent\.tools\[1\]\.command\.argv\[2\]: unknown template "\{\{ env\.HOME \}\}": a tool's templates read its call arguments only/),
      expect.stringMatching(/^agent\.tools\[1\]\.command\.argv\[3\]: filter "\| path" in "\{\{ args\.x \| path \}\}" is not allowed here/),
      expect.stringMatching(/^agent\.tools\[1\]\.command\.allow_env\[0\]: expected an environment variable name .*, got "A=B"/),
      'agent.tools[1].command.allow_env[1]: expected string, got number 5',
      'agent.tools[1].command.max_output_bytes: expected a number >= 1, got number 0',
      'agent.tools[2].http.url: template "{{ args.z }}" names no parameter of the tool; expected one of: q; did you mean "q"?',
      'agent.tools[2].http.timeout_ms: expected a number >= 1, got number 0',
      'agent.tools[2].http.headers.A: expected string, got number 5',
      expect.stringMatching(/^agent\.tools\[2\]\.http\.headers\.B: template "\{\{ env\.1 \}\}" names no environment variable/),
    ]);
  });

  it("says a command block's http key and an http block's command key belong to the other kind of tool, once, with the block's keys", () => {
    const tools = [
      '    - {name: c1, parameters: {type: object}, command: {argv: [echo], url: "https://x.example", headers: 5, max_output_bytes: 0}}',
      '    - {name: h1, parameters: {type: object}, http: {argv: [echo], allow_env: [HOME], foo: 1}}',
      '',
    ].join('\n');
    const error = errorOf(`${base}${tools}`);
    const problems = 'errors' in error ? (error.errors as ConfigError[]) : [error];
    const commandKeys = 'expected one of: argv, timeout_ms, allow_env, max_output_bytes, refuse_option_args';
    const httpKeys = 'expected one of: method, url, headers, body, timeout_ms';
    expect(problems.map((problem) => `${problem.path}: ${problem.expected}`).sort()).toEqual(
      [
        // A key no kind takes is still unknown, and a bad value of the block's own key is still said.
        'agent.tools[1].command.max_output_bytes: expected a number >= 1, got number 0',
        `agent.tools[1].command.url: "url" belongs to an http tool, not a command tool; ${commandKeys}`,
        // Said once, whatever it holds (here no header mapping).
        `agent.tools[1].command.headers: "headers" belongs to an http tool, not a command tool; ${commandKeys}`,
        'agent.tools[2].http: missing required key "url"',
        `agent.tools[2].http.argv: "argv" belongs to a command tool, not an http tool; ${httpKeys}`,
        `agent.tools[2].http.allow_env: "allow_env" belongs to a command tool, not an http tool; ${httpKeys}`,
        `agent.tools[2].http.foo: unknown key "foo"; ${httpKeys}`,
      ].sort(),
    );
  });

  it('a tool whose name is not a string is counted by none, and the names a plan calls are still checked', () => {
    const tools = ['    - {name: 5, builtin: echo}', '    - {name: p, parameters: {type: object}, plan: {steps: [{tools: [{name: nope}]}]}}'];
    const flow = ['flow:', '  entry_point: s', '  components: [{name: s, type: deterministic_step, tool_name: nope2}]', '  routers: [{from: s, to: end}]'];
    const error = errorOf(`${base}${[...tools, ...flow, ''].join('\n')}`);
    const problems = 'errors' in error ? (error.errors as ConfigError[]) : [error];
    expect(problems.map((problem) => `${problem.path}: ${problem.expected}`)).toEqual([
      'agent.tools[1].name: expected string, got number 5',
      'agent.tools[2].plan.steps[0].tools[0].name: unknown tool "nope"; expected an agent tool, a built-in, for_each or if_else',
      expect.stringMatching(/^flow\.components\[0\]\.tool_name: unknown tool "nope2"; expected an agent tool or a built-in \(read_file, /),
    ]);
  });

  it('reports YAML syntax errors with their position', () => {
    const error = errorOf('id: bot\nagent: {name: [unclosed\n');
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(error.line).toBeGreaterThanOrEqual(2);
    expect(error.column).toBeGreaterThanOrEqual(1);
  });

  it('refuses a YAML alias bomb', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++)
      bomb.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
          .fill('*' + String.fromCharCode(97 + i))
          .join(', ')}]`,
      );
    const error = errorOf(bomb.join('\n'));
    expect(error.message).toMatch(/alias/i);
  });

  it('locates a skill folder of more than 1,000 files at the ref that names it, with its code', () => {
    const dir = tempDir({ 'big/SKILL.md': '---\nname: big\ndescription: Big.\n---\nbody\n' });
    for (let i = 0; i <= 1000; i++) writeFileSync(join(dir, 'big', `f${i}.txt`), '');
    writeFileSync(join(dir, 'agent.yaml'), 'id: big\nagent:\n  name: B\n  skills: [{ref: big}]\n');
    const error = configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml')));
    expect(error).toMatchObject({ code: 'CONFIG_TOO_LARGE', file: join(dir, 'agent.yaml'), line: 4, path: 'agent.skills[0].ref' });
    expect(error.expected).toContain('holds more than 1000 files');
  });

  it('refuses a skill ref that points nowhere, located at the ref', () => {
    const error = errorOf(`${base}  skills:\n    - {ref: ../no-such-skill}\n`);
    // A missing file or folder is CONFIG_NOT_FOUND, as docs/skills.md gives it, though located at the ref.
    expect(error.code).toBe('CONFIG_NOT_FOUND');
    expect(error.path).toBe('agent.skills[0].ref');
    expect(error.line).toBe(9);
    expect(error.message).toMatch(/no-such-skill" does not exist; expected a folder that holds SKILL\.md/);
  });

  it('refuses two skills of one name in one build, located at the second (inline or by ref)', () => {
    const inline = (name: string) => `    - {name: ${name}, description: D., body: B}\n`;
    const two = errorOf(`${base}  skills:\n${inline('triage')}${inline('triage')}`);
    expect([two.path, two.line]).toEqual(['agent.skills[1].name', 10]);
    expect(two.expected).toBe('duplicate skill name "triage" (already used by agent.skills[0]); a build cannot hold two skills of one name');

    const skillMd = '---\nname: triage\ndescription: From a folder.\n---\nBody\n';
    const dir = tempDir({ 'skills/triage/SKILL.md': skillMd, 'skills/copy/SKILL.md': skillMd });
    const load = (skills: string) => {
      writeFileSync(join(dir, 'agent.yaml'), `${base}  skills:\n${skills}`);
      return configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml')));
    };
    // An inline skill, then a ref whose SKILL.md has its name: at the ref.
    const byRef = load(`${inline('triage')}    - {ref: skills/copy}\n`);
    expect([byRef.path, byRef.line]).toEqual(['agent.skills[1].ref', 10]);
    expect(byRef.expected).toBe(
      'duplicate skill name "triage", named so by this folder\'s SKILL.md (already used by agent.skills[0]); a build cannot hold two skills of one name',
    );
    // A ref, then an inline skill of its name; the same folder twice; every one in one pass.
    const all = load(`    - {ref: skills/triage}\n${inline('triage')}    - {ref: skills/triage}\n    - {ref: skills/copy}\n`);
    expect(all.message.split('\n').map((line) => /at (agent\.skills\[\d\]\.\w+)/.exec(line)?.[1])).toEqual([
      'agent.skills[1].name',
      'agent.skills[2].ref',
      'agent.skills[3].ref',
    ]);
  });

  it('accepts JSON files', () => {
    const dir = tempDir({ 'agent.json': JSON.stringify({ id: 'bot', agent: { name: 'Bot', max_turns: 2 } }) });
    expect(loadAgentBuild(join(dir, 'agent.json')).build.agent?.max_turns).toBe(2);
  });

  it('says so when the file does not exist', () => {
    expect(() => loadAgentBuild('/nonexistent/agent.yaml')).toThrow(/file not found/);
  });
});
