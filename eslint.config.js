// Lint rules that keep the house in order: the engine never imports Electron or React, each of its
// areas imports only the areas under it (the table in eslint.layers.js), only the preload script
// and the shell touch Electron's IPC, and the renderer's features never import one another.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { ENGINE_LAYERS, LAYER_REASONS, TEST_SUPPORT } from './eslint.layers.js';

/** What no engine file imports: the engine runs under plain Node. */
const ENGINE_PATHS = [
  { name: 'electron', message: 'The engine runs under plain Node: Electron belongs in main/shell.' },
  { name: 'react', message: 'The engine never imports React.' },
];
/**
 * The engine's import rule with `patterns` added. A later `files` block that sets
 * `no-restricted-imports` replaces the rule for its files, so each one carries ENGINE_PATHS.
 */
const engineImports = (...patterns) => ['error', { paths: ENGINE_PATHS, patterns }];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A relative import that climbs exactly `levels` folders (none: `./`) and stops there. */
const climb = (levels) => (levels === 0 ? '^\\./' : `^(?:\\.\\./){${levels}}(?!\\.\\./)`);
const isFile = (unit) => unit.endsWith('.ts');
/** How an import that reached main/engine/ names `unit`: a folder by its path, a file by its `.js` name. */
const unitPath = (unit) => (isFile(unit) ? `${escape(unit.slice(0, -3))}\\.js$` : `${escape(unit)}/`);
/**
 * The rule blocks of one unit of ENGINE_LAYERS: one per depth of its files below main/engine/, as
 * `../` counts differ (from traffic/log/migrations/x.ts, `../../../` is main/engine/). An import
 * that reaches main/engine/ must go on into a unit the table allows; one from traffic/log/ that
 * stops in traffic/ is refused too; production code never imports test support.
 */
function layerBlocks(unit, allowed) {
  const why =
    `${unit} may import only ${allowed.length ? allowed.join(', ') : 'no other area'} of the engine (ENGINE_LAYERS in eslint.layers.js). ${LAYER_REASONS[unit] ?? ''}`.trim();
  // An allowed folder lets in the units inside it only when they are allowed too (traffic, not traffic/log).
  const inside = Object.keys(ENGINE_LAYERS).filter(
    (other) => !allowed.includes(other) && allowed.some((a) => !isFile(a) && other.startsWith(`${a}/`)),
  );
  const own = isFile(unit) ? 0 : unit.split('/').length;
  const depths = isFile(unit) ? [0] : [own, own + 1, own + 2].filter((depth) => depth <= 3);
  return depths.map((depth) => {
    const patterns = [
      { regex: `${climb(depth)}(?!(?:${allowed.map(unitPath).join('|') || '$^'}))`, message: why },
      ...inside.map((other) => ({ regex: `${climb(depth)}${unitPath(other)}`, message: why })),
      // From a unit inside another (traffic/log), the folders between it and main/engine/.
      ...Array.from({ length: Math.max(0, own - 1) }, (_, up) => ({
        regex: climb(depth - own + 1 + up),
        message: why,
      })),
      { regex: TEST_SUPPORT_IMPORT, message: TEST_SUPPORT_ONLY },
    ];
    return {
      files: [isFile(unit) ? `main/engine/${unit}` : `main/engine/${unit}/${'*/'.repeat(depth - own)}*.ts`],
      ignores: ['**/*.test.ts', ...TEST_SUPPORT],
      rules: { 'no-restricted-imports': engineImports(...patterns) },
    };
  });
}
const TEST_SUPPORT_IMPORT = '(?:^|/)testing(?:/|\\.js$)|(?:^|/)testing-[^/]*\\.js$';
const TEST_SUPPORT_ONLY =
  'Test support (testing/, testing.ts, testing-*.ts) is for tests: production code never imports it (TEST_SUPPORT in eslint.layers.js).';
// Units inside another unit come after it, so that their blocks replace the rule for their files.
const LAYER_BLOCKS = Object.entries(ENGINE_LAYERS)
  .sort(([a], [b]) => a.split('/').length - b.split('/').length)
  .flatMap(([unit, allowed]) => layerBlocks(unit, allowed));
/** What no renderer file imports: Electron, and engine code other than its API contract. */
const RENDERER_PATHS = [{ name: 'electron', message: 'The renderer talks to the engine only through the api object.' }];
const ENGINE_CODE = {
  regex: '^(\\.\\./)+main/',
  message:
    'The renderer may import only the engine API contract, as @engine-api/… (never engine code, never by a relative path).',
};
const RENDERER_TEST_SUPPORT = {
  regex: '(?:^|/)testing/',
  message: 'renderer/src/testing/ is for tests (it brings @testing-library into whatever imports it).',
};
/** The renderer's import rule with `patterns` added (a later block replaces the rule, as for the engine). */
const rendererImports = (...patterns) => [
  'error',
  { paths: RENDERER_PATHS, patterns: [ENGINE_CODE, RENDERER_TEST_SUPPORT, ...patterns] },
];
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
  {
    ignores: [
      'out/**',
      'node_modules/**',
      '.node_modules-before-install/**',
      '.electron-native/**',
      'playwright-report/**',
      'test-results/**',
    ],
  },
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
  ...LAYER_BLOCKS,
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
