// @ts-check
// Lint for agentcheck: the recommended JavaScript and typescript-eslint rules, plus the layer
// rules of docs/architecture.md as import restrictions, so a wrong-way import fails CI.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NO_BIN = { regex: '(^|/)bin/', message: 'bin/ is the CLI entry; nothing in src/ imports it (docs/architecture.md, Layers).' };
const NO_RUNNER = { regex: '(^|/)runner/', message: 'Only bin/ and the public entries depend on src/runner (docs/architecture.md, Layers).' };

/** A folder's import rule: the patterns it may not import, plus the rule every src/ folder has. */
function layer(files, ...patterns) {
  return {
    files,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...patterns, NO_BIN] }] },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'reports/**', 'bench/results/**', 'fixtures/**', '.ci/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // The codebase marks intentionally unused bindings (rest-destructuring to drop keys,
      // ignored catch errors) with a leading underscore.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.mts'],
    // TypeScript itself reports undefined names, with types; the base rule only adds false alarms.
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    // Tests build deliberately malformed reports and requests, field by field.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Layers (docs/architecture.md): dependencies point one way.
  layer(['src/**/*.ts'], NO_RUNNER),
  layer(
    ['src/engine/**/*.ts'],
    NO_RUNNER,
    { regex: '(^|/)verdicts/', message: 'The engine never imports verdicts: checks read spans, the engine writes them.' },
    {
      regex: '(^|/)spans/(?!conventions\\.js$)',
      message: 'The engine uses spans only through @opentelemetry/api and spans/conventions.js; the SDK is set up in src/spans.',
    },
    { regex: '^@opentelemetry/(?!api$)', message: 'The engine uses @opentelemetry/api only, never the SDK (src/spans/tracing.ts sets it up).' },
  ),
  layer(['src/verdicts/**/*.ts'], NO_RUNNER, {
    regex: '(^|/)engine/',
    allowTypeImports: true,
    message: 'Verdicts may use engine types only (import type), never engine code.',
  }),
  // The runner and the public entries may import every layer.
  layer(['src/runner/**/*.ts', 'src/index.ts', 'src/vitest/**/*.ts']),
);
