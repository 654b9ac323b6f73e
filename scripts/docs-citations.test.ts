/**
 * The code cites the contract in the repository's own docs, never in documents outside it: every
 * `docs/<file> §N` names a file that exists and a section (or numbered item) that file has, and no
 * citation of the two outside documents (the platform's text, the team's decisions) is left.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/testing/serve-process.js';

const SOURCES = /\.(ts|tsx|mjs|js|css|md)$/;
const tracked = execFileSync('git', ['ls-files', 'main', 'renderer', 'e2e', 'bench', 'scripts', 'README.md', 'docs'], {
  cwd: PROJECT_ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => SOURCES.test(file));
const text = (file: string) => readFileSync(join(PROJECT_ROOT, file), 'utf8');

/**
 * The sections a contract document has: `## 7.` / `### 7.2` headings, and numbered list items
 * under them (item 3 of §7.4 is §7.4.3, item 7 of §5 is §5.7).
 */
function sectionsOf(markdown: string): Set<string> {
  const found = new Set<string>();
  let current = '';
  for (const line of markdown.split('\n')) {
    const heading = /^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s/.exec(line);
    if (heading) {
      current = heading[1]!;
      found.add(current);
      continue;
    }
    const item = /^(\d+)\.\s/.exec(line);
    if (item && current) found.add(`${current}.${item[1]}`);
  }
  return found;
}

describe('citations of the contract', () => {
  it('point into docs/: none is left to a document outside the repository', () => {
    const outside = tracked
      .filter((file) => !file.startsWith('docs/'))
      .flatMap((file) =>
        text(file)
          .split('\n')
          .map((line, index) => ({ file, line: index + 1, text: line }))
          .filter(({ text: line }) => /\b(seed|Seed|CONTRACT) §/.test(line)),
      );
    expect(outside.map(({ file, line }) => `${file}:${line}`)).toEqual([]);
  });

  it('name a section the cited document has', () => {
    const cited = new Map<string, Set<string>>();
    for (const file of tracked) {
      // `docs/contract/platform.md §7.2`, and the sections listed after it: `§2.4, §4.3`, `§3/§7.1`.
      for (const match of text(file).matchAll(/docs\/([\w/.-]+\.md) ((?:§\d+(?:\.\d+)*[\s,/and]*)+)/g)) {
        const numbers = [...match[2]!.matchAll(/§(\d+(?:\.\d+)*)/g)].map((n) => n[1]!);
        const set = cited.get(match[1]!) ?? new Set<string>();
        for (const number of numbers) set.add(number);
        cited.set(match[1]!, set);
      }
    }
    expect([...cited.keys()].sort()).toEqual(['contract/console.md', 'contract/platform.md']);
    const missing: string[] = [];
    for (const [doc, numbers] of cited) {
      const sections = sectionsOf(text(join('docs', doc)));
      for (const number of numbers) if (!sections.has(number)) missing.push(`docs/${doc} §${number}`);
    }
    expect(missing).toEqual([]);
  });
});
