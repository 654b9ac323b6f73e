/**
 * The renderer's CSS keeps the convention in docs/decisions/css-modules.md: an area's or a
 * component's styles are a CSS module beside it (camelCase classes, read as `styles.itemRow`); the
 * only global CSS is the layer of tokens, base element styles and shared primitives listed below.
 * A module's keys are typed `string | undefined`, so a misspelt `styles.key` would compile and
 * silently style nothing: this test is what catches it, and a rule no file uses any more.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/testing/serve-process.js';

const SRC = join(PROJECT_ROOT, 'renderer/src');

/** The global layer: tokens and base element styles, and the primitives every area shares (.badge, .table). */
const GLOBAL = new Set(['styles.css', 'components/Badge.css', 'components/DataTable.css']);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const files = walk(SRC).map((file) => relative(SRC, file));
const text = (file: string) => readFileSync(join(SRC, file), 'utf8');
const sources = files.filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));

/** A stylesheet's selectors, one per comma-separated part, outside comments, at-rules and keyframe steps. */
function selectorsOf(css: string): string[] {
  const stripped = css.replace(/\/\*[\s\S]*?\*\//g, '');
  return [...stripped.matchAll(/([^{};]*)\{/g)]
    .map(([, selector]) => selector!.trim())
    .filter((selector) => !selector.startsWith('@') && !/^(from|to|\d+(\.\d+)?%)\b/.test(selector))
    .flatMap((selector) => selector.split(',').map((part) => part.trim()));
}

/** The classes a stylesheet defines: every `.name` in a selector, outside `:global(…)`. */
function classesOf(css: string): Set<string> {
  const found = new Set<string>();
  for (const selector of selectorsOf(css)) {
    for (const [, name] of selector.replace(/:global\([^)]*\)/g, '').matchAll(/\.(-?[_a-zA-Z][\w-]*)/g))
      found.add(name!);
  }
  return found;
}

/** `import styles from './x.module.css'` and `import './x.css'` in a source file, resolved to paths under renderer/src. */
function cssImports(file: string): { module: string[]; plain: string[] } {
  const module: string[] = [];
  const plain: string[] = [];
  for (const [, bound, spec] of text(file).matchAll(/^import\s+(?:(\w+)\s+from\s+)?'([^']+\.css)';$/gm)) {
    const target = relative(SRC, resolve(SRC, dirname(file), spec!));
    (bound ? module : plain).push(target);
  }
  return { module, plain };
}

describe('the renderer CSS convention (docs/decisions/css-modules.md)', () => {
  it('has no plain stylesheet outside the global layer: an area or a component styles itself with a module', () => {
    const plain = files.filter((file) => file.endsWith('.css') && !file.endsWith('.module.css') && !GLOBAL.has(file));
    expect(plain).toEqual([]);
  });

  it('imports a plain stylesheet only from its own folder, and a module only as `styles` from its own folder', () => {
    const wrong = sources.flatMap((file) => {
      const { module, plain } = cssImports(file);
      return [
        ...plain
          .filter((css) => css.endsWith('.module.css') || dirname(css) !== dirname(file))
          .map((css) => `${file} imports ${css}`),
        ...module
          .filter((css) => !css.endsWith('.module.css') || dirname(css) !== dirname(file))
          .map((css) => `${file} reads ${css} as a module`),
      ];
    });
    expect(wrong).toEqual([]);
    expect(
      sources.filter((file) => /^import\s+(?!styles\b)\w+\s+from\s+'[^']+\.module\.css';$/m.test(text(file))),
    ).toEqual([]);
  });

  it('names module classes in camelCase, so every key reads as `styles.key`', () => {
    const modules = files.filter((file) => file.endsWith('.module.css'));
    expect(modules.length).toBeGreaterThan(0);
    const kebab = modules.flatMap((file) =>
      [...classesOf(text(file))].filter((name) => !/^[a-z][a-zA-Z0-9]*$/.test(name)).map((name) => `${file} .${name}`),
    );
    expect(kebab).toEqual([]);
  });

  it('starts every module selector from one of its classes: an #id is renamed by the module, a bare element selector styles the whole app', () => {
    const loose = files
      .filter((file) => file.endsWith('.module.css'))
      .flatMap((file) =>
        selectorsOf(text(file))
          .filter((selector) => !selector.startsWith('.'))
          .map((selector) => `${file}: ${selector}`),
      );
    expect(loose).toEqual([]);
  });

  it('uses only classes a module defines, and every class a module defines is used', () => {
    const used = new Map<string, Set<string>>();
    const missing: string[] = [];
    for (const file of sources) {
      const [module, ...more] = cssImports(file).module;
      if (!module) continue;
      expect(more, `${file} imports one module`).toEqual([]);
      const defined = classesOf(text(module));
      const keys = new Set([...text(file).matchAll(/\bstyles\.(\w+)/g)].map(([, key]) => key!));
      for (const key of keys) if (!defined.has(key)) missing.push(`${file}: styles.${key} is not in ${module}`);
      used.set(module, new Set([...(used.get(module) ?? []), ...keys]));
    }
    const unused = [...used].flatMap(([module, keys]) =>
      [...classesOf(text(module))].filter((name) => !keys.has(name)).map((name) => `${module} .${name}`),
    );
    expect(missing).toEqual([]);
    expect(unused).toEqual([]);
  });

  it('reads classes from selectors only: not from values, comments or :global(…)', () => {
    const css =
      '/* .note */ .itemRow:hover > .grip, :global(.empty) .cell { opacity: 0.5; } @media (max-width: 1199px) { .side { width: 1.5rem; } }';
    expect([...classesOf(css)].sort()).toEqual(['cell', 'grip', 'itemRow', 'side']);
  });
});
