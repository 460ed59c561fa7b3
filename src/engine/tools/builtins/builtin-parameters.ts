import type { BuiltinName } from '../../revision/types.js';

/**
 * The parameters (JSON Schema) of each built-in tool, apart from the tools themselves: build
 * validation checks a flow step's arguments against them without loading the tools' code
 * (start-up of `agentcheck validate`; docs/architecture.md, Start-up).
 */
export const BUILTIN_PARAMETERS = {
  read_file: {
    type: 'object',
    properties: { path: { type: 'string', description: 'File path relative to the workspace root' } },
    required: ['path'],
    additionalProperties: false,
  },
  write_file: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path relative to the workspace root' },
      content: { type: 'string', description: 'The complete new content of the file' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  edit_file: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path relative to the workspace root' },
      old: { type: 'string', description: 'The exact text to replace (whitespace included)' },
      new: { type: 'string', description: 'The replacement text' },
    },
    required: ['path', 'old', 'new'],
    additionalProperties: false,
  },
  list_dir: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Folder path relative to the workspace root', default: '.' } },
    required: [],
    additionalProperties: false,
  },
  find_files: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Regular expression tested against each relative path, e.g. "\\\\.ts$"' },
      path: { type: 'string', description: 'Folder to search, relative to the workspace root', default: '.' },
      limit: { type: 'integer', minimum: 1, description: 'Most paths to return', default: 100 },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  grep: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Regular expression tested against each line' },
      path: { type: 'string', description: 'File or folder to search, relative to the workspace root', default: '.' },
      limit: { type: 'integer', minimum: 1, description: 'Most matches to return', default: 100 },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  run_command: {
    type: 'object',
    properties: {
      argv: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description: 'Program and arguments, e.g. ["ls", "-la", "src"]',
      },
    },
    required: ['argv'],
    additionalProperties: false,
  },
  echo: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to return' } },
    required: ['text'],
    additionalProperties: false,
  },
} as const satisfies Record<BuiltinName, Record<string, unknown>>;
