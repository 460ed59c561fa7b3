/**
 * A test_run request on the coding agent that writes CHANGELOG.md (a gated call: it pauses) and
 * reads it back: the read shows whether the write landed. Shared by the MCP and library resume tests.
 */
export const gatedWrite = {
  agent: 'fixtures/agents/coding-agent.yaml',
  workspace: 'fixtures/workspaces/coding',
  inputs: { messages: [{ role: 'user' as const, content: 'Write a CHANGELOG.md saying the add bug is fixed.' }] },
  expectations: { terminal_tool: 'read_file' },
  script: [
    { tool_calls: [{ name: 'write_file', args: { path: 'CHANGELOG.md', content: '- fixed add()\n' } }] },
    { tool_calls: [{ name: 'read_file', args: { path: 'CHANGELOG.md' } }] },
    { text: 'Done.' },
  ],
};

/** The same request writing two files: it pauses twice, once per write. */
export const twoGatedWrites = {
  ...gatedWrite,
  expectations: { terminal_tool: 'write_file' },
  script: [
    { tool_calls: [{ name: 'write_file', args: { path: 'A.md', content: 'a' } }] },
    { tool_calls: [{ name: 'write_file', args: { path: 'B.md', content: 'b' } }] },
    { text: 'Done.' },
  ],
};
