/**
 * The rules the conformance suite cites resolve in the package as users get it (docs/contract/
 * console.md §8): every `docs/…` file a case names as its rule, and docs/conformance.md that the
 * reports and `check --help` point to, are in the tarball `npm pack` makes, with the files those
 * link to. Read from `npm pack --dry-run` (no build needed: only the list of files is asked).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseInfos } from '../main/engine/conformance/suite.js';
import { PROJECT_ROOT } from '../main/testing/serve-process.js';

let packed: Set<string>;

beforeAll(() => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: PROJECT_ROOT,
    env,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) throw new Error(`npm pack --dry-run exited ${result.status}:\n${result.stderr}`);
  const [pack] = JSON.parse(result.stdout) as { files: { path: string }[] }[];
  packed = new Set(pack!.files.map((file) => file.path));
});

/** Every relative `.md` link of a Markdown file, as a path from the project's root. */
function mdLinks(file: string): string[] {
  const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
  return [...text.matchAll(/\]\(([^)#\s:]+\.md)(?:#[^)]*)?\)/g)].map((match) =>
    normalize(join(dirname(file), match[1]!)).replaceAll('\\', '/'),
  );
}

describe('the docs the README leads to, in the tarball', () => {
  it('holds every doc the README links to, and every doc those link to', () => {
    const seen = new Set<string>();
    const next = ['README.md'];
    while (next.length) {
      const file = next.pop()!;
      for (const link of mdLinks(file)) {
        if (seen.has(link)) continue;
        seen.add(link);
        expect(packed.has(link), `${link} (linked from ${file})`).toBe(true);
        next.push(link);
      }
    }
    expect(seen.size).toBeGreaterThan(10);
  });
});

describe('the docs the suite cites, in the tarball', () => {
  it('holds every file a case names as its rule, and docs/conformance.md', () => {
    const cited = new Set(
      caseInfos()
        .map((info) => /^(docs\/\S+\.md)/.exec(info.rule)?.[1])
        .filter((path) => path !== undefined),
    );
    expect(cited.size).toBeGreaterThan(0);
    for (const path of [...cited, 'docs/conformance.md']) expect(packed.has(path), path).toBe(true);
  });

  it('holds the docs that docs/conformance.md links to', () => {
    const text = readFileSync(join(PROJECT_ROOT, 'docs/conformance.md'), 'utf8');
    const links = [...text.matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((match) =>
      normalize(join('docs', match[1]!)).replaceAll('\\', '/'),
    );
    const contract = links.filter((path) => path.startsWith(`${dirname('docs/contract/x')}/`));
    expect(contract.length).toBeGreaterThan(0);
    for (const path of contract) expect(packed.has(path), path).toBe(true);
  });
});
