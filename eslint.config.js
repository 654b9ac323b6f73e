// Lint rules that keep the house in order: the engine never imports Electron or React, and only
// the preload script and the shell touch Electron's IPC.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', '.electron-native/**', 'playwright-report/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['main/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The engine runs under plain Node: Electron belongs in main/shell.' },
            { name: 'react', message: 'The engine never imports React.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks to the engine only through the api object.' }],
          patterns: [
            {
              regex: '^(\\.\\./)+main/(?!engine/api/)',
              message: 'The renderer may import only the engine API contract (main/engine/api), never engine code.',
            },
          ],
        },
      ],
    },
  },
  {
    // Renderer tests may start a real engine to test a transport against it.
    files: ['renderer/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['e2e/**/*.ts', 'scripts/**/*.mjs', 'bench/**/*.{ts,mjs}'],
    rules: { 'no-console': 'off', 'no-empty-pattern': 'off' },
  },
);
