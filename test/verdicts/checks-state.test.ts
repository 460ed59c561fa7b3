import { describe, expect, it } from 'vitest';
import { check, evidenceOf } from './check-helpers.js';

describe('state: the conversation_history channel', () => {
  const flow_state = {
    status: 'completed',
    context: {},
    ui_chat_log: [],
    conversation_history: {
      bot: [
        { role: 'user', content: 'Fix it.' },
        { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'c1', tool_name: 'edit_file', input: { path: 'a.json' } }] },
        { role: 'tool', tool_call_id: 'c1', tool_name: 'edit_file', content: '{"ok":true}', is_error: false },
        { role: 'assistant', content: 'done' },
      ],
    },
  };
  const evidence = evidenceOf([], { flow_state });

  it("reads a component's conversation and its sub keys", () => {
    expect(check('state', { key: 'conversation_history:bot', exists: true }, evidence).status).toBe('pass');
    expect(check('state', { key: 'conversation_history:bot.0.content', equals: 'Fix it.' }, evidence).status).toBe('pass');
    expect(check('state', { key: 'conversation_history:bot.1.tool_calls.0.input.path', equals: 'a.json' }, evidence).status).toBe('pass');
    expect(check('state', { key: 'conversation_history:bot', contains: { role: 'assistant', content: 'done' } }, evidence).status).toBe('pass');
  });

  it('fails for a component without a conversation', () => {
    expect(check('state', { key: 'conversation_history:other', exists: true }, evidence).reason).toBe(
      'expected state conversation_history:other to exist; it does not',
    );
  });
});
