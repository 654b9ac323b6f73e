/**
 * Every class the renderer names is styled, and every class its stylesheets style is named
 * (docs/decisions/renderer-css.md): a component's module keys (`styles.row`) against that module's
 * selectors, and the plain class names a component writes (`className="muted"`) against the one
 * global stylesheet, styles.css. No `:global` escapes a module: a look another folder needs is a
 * component of its own, or a primitive in styles.css.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
const GLOBAL_SHEET = 'styles.css';

/**
 * Offenders in the areas still being split into one stylesheet per component (oauth, queues,
 * conformance, api), as `file: problem`. Each line goes once its area is clean; the test fails on a
 * line that no longer happens, so the list only ever shrinks.
 */
const KNOWN: readonly string[] = [];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const files = walk(SRC).map((file) => relative(SRC, file).replaceAll('\\', '/'));
const text = (file: string) => readFileSync(join(SRC, file), 'utf8');
const sources = files.filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
const modules = files.filter((file) => file.endsWith('.module.css'));

/** A stylesheet's selectors, outside comments, at-rules and keyframe steps. */
export function selectorsOf(css: string): string[] {
  const stripped = css.replace(/\/\*[\s\S]*?\*\//g, '');
  return [...stripped.matchAll(/([^{};]*)\{/g)]
    .map(([, selector]) => selector!.trim())
    .filter((selector) => !selector.startsWith('@') && !/^(from|to|\d+(\.\d+)?%)\b/.test(selector));
}

/** The classes a stylesheet styles: every `.name` in a selector (not in a value, a comment, an attribute or `:global(…)`). */
export function classesOf(css: string): Set<string> {
  const found = new Set<string>();
  for (const selector of selectorsOf(css))
    for (const [, name] of selector.replace(/\[[^\]]*\]|:global\([^)]*\)/g, '').matchAll(/\.(-?[_a-zA-Z][\w-]*)/g))
      found.add(name!);
  return found;
}

/** The end of the `{…}` expression opening at `start`, braces in strings and templates counted alike (they balance). */
function closingBrace(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) return i;
  }
  return source.length;
}

/**
 * The plain class names a source writes: the words of the string literals inside its
 * `className=` (and `rowsClassName=`…) attributes, not the `${styles.key}` parts of a template.
 */
export function plainClassesOf(source: string): Set<string> {
  const found = new Set<string>();
  const words = (literal: string) => literal.split(/\s+/).filter((word) => /^-?[_a-zA-Z][\w-]*$/.test(word));
  for (const match of source.matchAll(/\b\w*[cC]lassName=(?:"([^"]*)"|(\{))/g)) {
    if (match[1] !== undefined) {
      for (const word of words(match[1])) found.add(word);
      continue;
    }
    const open = match.index + match[0].length - 1;
    const expression = source.slice(open, closingBrace(source, open) + 1);
    for (const [, single, double, template] of expression.matchAll(/'([^']*)'|"([^"]*)"|`([^`]*)`/g)) {
      const literal = single ?? double ?? template!.replace(/\$\{[^}]*\}/g, ' ');
      for (const word of words(literal)) found.add(word);
    }
  }
  return found;
}

/** The keys a source reads of its module: `styles.key` and `styles['key']`. */
export function moduleKeysOf(source: string): Set<string> {
  return new Set(
    [...source.matchAll(/\bstyles(?:\.(\w+)|\[['"]([\w-]+)['"]\])/g)].map(([, dot, bracket]) => (dot ?? bracket)!),
  );
}

/** The module a source imports as `styles`, as a path under renderer/src. */
function moduleOf(file: string): string | null {
  const spec = /^import\s+styles\s+from\s+'([^']+\.module\.css)';$/m.exec(text(file))?.[1];
  return spec ? relative(SRC, resolve(SRC, dirname(file), spec)).replaceAll('\\', '/') : null;
}

/** Every problem found, as `file: problem`. */
function problems(): string[] {
  const found: string[] = [];
  const readers = new Map<string, string[]>(modules.map((module) => [module, []]));
  for (const file of sources) {
    const module = moduleOf(file);
    if (!module) continue;
    readers.get(module)?.push(file);
    const styled = readers.has(module) ? classesOf(text(module)) : new Set<string>();
    for (const key of moduleKeysOf(text(file)))
      if (!styled.has(key)) found.push(`${file}: styles.${key} is styled by nothing in ${module}`);
  }
  for (const [module, files] of readers) {
    if (files.length === 0) {
      found.push(`${module}: no component imports it`);
      continue;
    }
    const read = new Set(files.flatMap((file) => [...moduleKeysOf(text(file))]));
    for (const name of classesOf(text(module)))
      if (!read.has(name)) found.push(`${module}: .${name} is used by nothing`);
    if (text(module).includes(':global')) found.push(`${module}: :global escapes the module`);
  }

  const global = classesOf(text(GLOBAL_SHEET));
  const written = new Map<string, string[]>();
  for (const file of sources)
    for (const name of plainClassesOf(text(file))) written.set(name, [...(written.get(name) ?? []), file]);
  for (const [name, files] of written)
    if (!global.has(name)) for (const file of files) found.push(`${file}: class "${name}" is styled by nothing`);
  for (const name of global) if (!written.has(name)) found.push(`${GLOBAL_SHEET}: .${name} is used by nothing`);
  return found.sort();
}

describe('the renderer’s classes (docs/decisions/renderer-css.md)', () => {
  it('styles every class a component names, and names every class a stylesheet styles', () => {
    const found = problems();
    expect(found.filter((problem) => !KNOWN.includes(problem))).toEqual([]);
    expect(
      KNOWN.filter((problem) => !found.includes(problem)),
      'fixed: take these off KNOWN',
    ).toEqual([]);
  });

  it('keeps global CSS to styles.css: no other plain stylesheet', () => {
    expect(files.filter((file) => file.endsWith('.css') && !file.endsWith('.module.css'))).toEqual([GLOBAL_SHEET]);
  });

  it('reads class names from selectors and className attributes only', () => {
    expect(
      [
        ...classesOf(
          '/* .note */ .row:hover > .grip, .cell[data-x=".y"], .a :global(.b) { background: url(a.png); } @media (width > 1px) { .side {} }',
        ),
      ].sort(),
    ).toEqual(['a', 'cell', 'grip', 'row', 'side']);
    const source = [
      '<p className="muted error" />',
      "<b className={`${styles.pill} live`} rowsClassName={open ? 'panel' : styles.x} />",
      "<i className={['badge', tone ?? ''].join(' ')} title=\"not a class\" />",
    ].join('\n');
    expect([...plainClassesOf(source)].sort()).toEqual(['badge', 'live', 'muted', 'error', 'panel'].sort());
    expect([...moduleKeysOf("styles.pill; styles['row']; nostyles.x")].sort()).toEqual(['pill', 'row']);
  });
});
