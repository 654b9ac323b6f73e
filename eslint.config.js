// Lint rules that keep the house in order: the engine never imports Electron or React, its lower
// layers (the store, the traffic log) import none of its domain areas, only the preload script
// and the shell touch Electron's IPC, and the renderer's features never import one another.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** What no engine file imports: the engine runs under plain Node. */
const ENGINE_PATHS = [
  { name: 'electron', message: 'The engine runs under plain Node: Electron belongs in main/shell.' },
  { name: 'react', message: 'The engine never imports React.' },
];
/** The engine's domain areas (folders of main/engine), which the layers under them serve. */
const DOMAIN_AREAS = [
  'traffic',
  'player',
  'login',
  'cloud-queue',
  'control',
  'faults',
  'household',
  'scenarios',
  'bundles',
  'admin',
  'console',
];
/** An import that climbs out of its folder into one of `areas`, at any depth. */
const intoAreas = (areas) => `^(\\.\\./)+(${areas.join('|')})(/|$)`;
/**
 * The engine's import rule with `patterns` added. A later `files` block that sets
 * `no-restricted-imports` replaces the rule for its files, so each one carries ENGINE_PATHS.
 */
const engineImports = (...patterns) => ['error', { paths: ENGINE_PATHS, patterns }];
const STORE_LAYER =
  'The store serves the engine’s areas and imports none of them: a caller hands it what it needs (see TrafficLogAttachment in store/store.ts).';
const LOG_LAYER =
  'The traffic log is a storage engine under the traffic area: it may import the API types, the store’s database helpers and http/, never a domain area (the recorder and capture use it, not the reverse).';
/** What no renderer file imports: Electron, and engine code other than its API contract. */
const RENDERER_PATHS = [{ name: 'electron', message: 'The renderer talks to the engine only through the api object.' }];
const ENGINE_CODE = {
  regex: '^(\\.\\./)+main/',
  message:
    'The renderer may import only the engine API contract, as @engine-api/… (never engine code, never by a relative path).',
};
/** The renderer's import rule with `patterns` added (a later block replaces the rule, as for the engine). */
const rendererImports = (...patterns) => ['error', { paths: RENDERER_PATHS, patterns: [ENGINE_CODE, ...patterns] }];
const FEATURE_BOUNDARY =
  'A feature never imports another feature: what two share lives in components/ (UI), format/ or queries/ (logic), or stores/ (state one hands to another).';
/**
 * From a file `depth` folders below features/<area>/, an import that leaves its area: one `../`
 * more than its depth (`../other/x` from features/<area>/x.tsx), or any climb back into features/.
 */
const intoOtherFeature = (depth) => ({
  regex: `^(\\.\\./){${depth + 1}}(?!\\.\\./)|^(\\.\\./)+features/`,
  message: FEATURE_BOUNDARY,
});

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
    rules: { 'no-restricted-imports': engineImports() },
  },
  {
    files: ['main/engine/store/**/*.ts'],
    rules: { 'no-restricted-imports': engineImports({ regex: intoAreas(DOMAIN_AREAS), message: STORE_LAYER }) },
  },
  {
    // From traffic/log/*.ts, `../x` is the traffic area around the log.
    files: ['main/engine/traffic/log/*.ts'],
    rules: {
      'no-restricted-imports': engineImports(
        { regex: intoAreas(DOMAIN_AREAS), message: LOG_LAYER },
        { regex: '^\\.\\./(?!\\.\\./)', message: LOG_LAYER },
      ),
    },
  },
  {
    // From traffic/log/migrations/*.ts, `../../x` is.
    files: ['main/engine/traffic/log/*/**/*.ts'],
    rules: {
      'no-restricted-imports': engineImports(
        { regex: intoAreas(DOMAIN_AREAS), message: LOG_LAYER },
        { regex: '^\\.\\./\\.\\./(?!\\.\\./)', message: LOG_LAYER },
      ),
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': rendererImports(),
    },
  },
  {
    files: ['renderer/src/features/*/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': rendererImports(intoOtherFeature(0)) },
  },
  {
    files: ['renderer/src/features/*/*/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': rendererImports(intoOtherFeature(1)) },
  },
  {
    // Renderer tests may start a real engine to test a transport against it; a feature's tests stay in their feature.
    files: ['renderer/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['renderer/src/features/*/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [intoOtherFeature(0)] }] },
  },
  {
    files: ['e2e/**/*.ts', 'scripts/**/*.mjs', 'bench/**/*.{ts,mjs}'],
    rules: { 'no-console': 'off', 'no-empty-pattern': 'off' },
  },
  // Layout is Prettier's (`npm run format`; `npm run lint` checks it): no lint rule argues with it.
  prettier,
);
