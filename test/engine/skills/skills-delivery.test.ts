import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { build, runScripted, toolSpans } from '../../helpers/run-agent.js';
import { invoke } from '../../../src/engine/invoke.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { installTracing } from '../../../src/spans/tracing.js';

function skillFolders() {
  return tempDir({
    'alpha/SKILL.md': '---\nname: alpha\ndescription: First skill.\n---\nStep 1. Do alpha.\n',
    'alpha/notes/extra.txt': 'extra',
    'beta/SKILL.md': '---\nname: beta\ndescription: Second skill.\n---\nDo beta.\n',
    'hidden/SKILL.md': '---\nname: hidden\ndescription: Release steps.\ndisable_model_invocation: true\n---\nRelease.\n',
    'alpha-again/SKILL.md': '---\nname: alpha\ndescription: A duplicate.\n---\nIgnored.\n',
  });
}

describe('skill delivery through invoke', () => {
  it('inline: appends every delivered skill to the system prompt in forced, revision, overlay order', async () => {
    const dir = skillFolders();
    const revision = build({ instructions: 'Base instructions.', skills: [{ ref: `${dir}/beta` }] });
    const { model, spans } = await runScripted(revision, [{ text: 'ok' }], {
      skills: { forced: [`${dir}/alpha`], overlay: [`${dir}/alpha-again`, `${dir}/hidden`] },
    });
    expect(model.requests[0].system).toBe(
      [
        'Base instructions.',
        '',
        '<skills>',
        '<skill name="alpha">',
        '<description>First skill.</description>',
        'Step 1. Do alpha.',
        '</skill>',
        '<skill name="beta">',
        '<description>Second skill.</description>',
        'Do beta.',
        '</skill>',
        '<skill name="hidden">',
        '<description>Release steps.</description>',
        'Release.',
        '</skill>',
        '</skills>',
      ].join('\n'),
    );
    expect(model.requests[0].tools).toEqual([]);
    const root = spans.find((s) => s.parent_id === null);
    expect(root?.attributes['agentcheck.skills.delivered']).toEqual(['alpha', 'beta', 'hidden']);
    const resolved = JSON.parse(String(root?.attributes['agentcheck.resolved_config']));
    expect(resolved.skills).toEqual(['alpha', 'beta', 'hidden']);
    expect(resolved.skills_delivery).toBe('inline');
    expect(resolved.skills_not_delivered).toEqual([{ name: 'alpha', source: `${dir}/alpha-again/SKILL.md`, reason: expect.stringContaining('duplicate of') }]);
  });

  it('on_demand: lists loadable skills, offers load_skill and returns a body with its files', async () => {
    const dir = skillFolders();
    const revision = build({ instructions: 'Base.', skills: [{ ref: `${dir}/alpha` }, { ref: `${dir}/hidden` }] });
    const { model, turn, spans } = await runScripted(
      revision,
      [{ tool_calls: [{ name: 'load_skill', args: { name: 'alpha' } }] }, { tool_calls: [{ name: 'load_skill', args: { name: 'hidden' } }] }, { text: 'done' }],
      { skills: { delivery: 'on_demand' } },
    );
    expect(model.requests[0].system).toBe(
      [
        'Base.',
        '',
        '<skills>',
        '<skill name="alpha">',
        '<description>First skill.</description>',
        '</skill>',
        '</skills>',
        'To use a skill, call the load_skill tool with its name and follow the instructions it returns.',
      ].join('\n'),
    );
    expect(model.requests[0].tools).toEqual([
      {
        name: 'load_skill',
        description: 'Loads a skill: returns its instructions (body) and the names of the files that come with it. Available skills: alpha.',
        parameters: {
          type: 'object',
          properties: { name: { type: 'string', description: "The skill's name, one of: alpha." } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    ]);
    const results = turn.messages.filter((m) => m.role === 'tool');
    expect(JSON.parse(results[0].content)).toEqual({ name: 'alpha', description: 'First skill.', body: 'Step 1. Do alpha.', files: ['notes/extra.txt'] });
    expect(results[1]).toMatchObject({ is_error: true });
    expect(results[1].content).toContain('cannot be loaded by the model');
    const [load] = toolSpans(spans);
    expect(load.attributes).toMatchObject({ 'gen_ai.tool.name': 'load_skill', 'agentcheck.tool.kind': 'skill', 'agentcheck.tool.outcome': 'ok' });
    const root = spans.find((s) => s.parent_id === null);
    expect(root?.attributes['agentcheck.skills.delivered']).toEqual(['alpha', 'hidden']);
  });

  it('a body comes verbatim inline, but through load_skill it is a tool result and passes prompt security (docs/security.md)', async () => {
    const skills = [{ name: 'playbook', description: 'How to.', body: 'Do <system>this</system>.' }];
    const inline = await runScripted(build({ skills }), [{ text: 'ok' }]);
    expect(inline.model.requests[0].system).toContain('Do <system>this</system>.');
    const onDemand = await runScripted(build({ skills }), [{ tool_calls: [{ name: 'load_skill', args: { name: 'playbook' } }] }, { text: 'done' }], {
      skills: { delivery: 'on_demand' },
    });
    const result = onDemand.turn.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(result!.content).body).toBe('Do &lt;system&gt;this&lt;/system&gt;.');
  });

  it('a delta can remove a skill like any other part of the revision', async () => {
    const dir = skillFolders();
    const { applyDelta } = await import('../../../src/engine/revision/delta.js');
    const revision = applyDelta(build({ skills: [{ ref: `${dir}/alpha` }, { ref: `${dir}/beta` }] }), { remove: ['agent.skills.0'] });
    const { spans } = await runScripted(revision, [{ text: 'ok' }]);
    expect(spans.find((s) => s.parent_id === null)?.attributes['agentcheck.skills.delivered']).toEqual(['beta']);
  });

  it('on_demand in a flow: an agent component with a toolset is offered load_skill too; listing it in the toolset is refused', async () => {
    const skills = [{ name: 'beta', description: 'Beta.', body: 'Beta body' }];
    const flow = (toolset: string[]) => ({
      flow: {
        entry_point: 'a',
        components: [{ name: 'a', type: 'agent', toolset }],
        routers: [{ from: 'a', to: 'end' }],
      },
    });
    const tools = [{ name: 'other', description: 'o', returns: 1 }];
    const { model, turn } = await runScripted(
      build({ skills, tools }, flow(['echo'])),
      [{ tool_calls: [{ name: 'load_skill', args: { name: 'beta' } }] }, { text: 'done' }],
      { skills: { delivery: 'on_demand' } },
    );
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['echo', 'load_skill']);
    const result = turn.messages.find((m) => m.role === 'tool');
    expect(result?.role === 'tool' && result.is_error).toBe(false);
    expect(JSON.parse(result!.content).body).toBe('Beta body');
    // Inline delivery has no load_skill to offer.
    const inline = await runScripted(build({ skills, tools }, flow(['echo'])), [{ text: 'ok' }]);
    expect(inline.model.requests[0].tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(() => build({ skills, tools }, flow(['echo', 'load_skill']))).toThrow(
      'at flow.components[0].toolset[1]: "load_skill" cannot be listed in a toolset: every agent component is offered it anyway when skills are delivered on demand (docs/skills.md); remove it',
    );
  });

  it("an external agent gets no skills: forced and overlay skills are listed as not delivered, and the scenario's delivery is recorded", async () => {
    const dir = skillFolders();
    const { tracer, store } = installTracing();
    const agent = "require('node:fs').readFileSync(0); process.stdout.write('answered');";
    const revision = revisionFromValue({ id: 'ext', external: { command: [process.execPath, '-e', agent] } });
    const turn = await invoke(
      revision,
      { messages: [{ role: 'user', content: 'hi' }] },
      { tracer, env: { PATH: process.env.PATH }, skills: { forced: [`${dir}/alpha`], overlay: [`${dir}/beta`, `${dir}/alpha-again`], delivery: 'on_demand' } },
    );
    expect(turn.output).toBe('answered');
    const root = store.take(turn.trace_id).find((span) => span.parent_id === null);
    const resolved = JSON.parse(String(root?.attributes['agentcheck.resolved_config']));
    expect(resolved.skills).toEqual([]);
    // The root says so as an engine agent's does (docs/spans.md): an empty list, not a missing attribute.
    expect(root?.attributes['agentcheck.skills.delivered']).toEqual([]);
    expect(resolved.skills_delivery).toBe('on_demand');
    const noSkills = "an external agent receives no skills: its prompt and tools are its own code's, so agentcheck cannot add";
    expect(resolved.skills_not_delivered).toEqual([
      { name: 'alpha', source: `${dir}/alpha/SKILL.md`, reason: expect.stringContaining(noSkills) },
      { name: 'beta', source: `${dir}/beta/SKILL.md`, reason: expect.stringContaining(noSkills) },
      { name: 'alpha', source: `${dir}/alpha-again/SKILL.md`, reason: expect.stringContaining('duplicate of the forced skill') },
    ]);
  });
});
