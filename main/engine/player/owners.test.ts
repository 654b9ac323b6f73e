/**
 * Each part of the player's state is written by one module only (context.ts): this reads every
 * non-test file of player/ with the TypeScript checker and fails on a write to a part's field
 * (an assignment, ++/--, delete, or a mutating call on it: push, add, clear…) from any other
 * module, however the part was reached (`p.ctx.x`, an alias, a cast). It also fails if the
 * player/ files import one another in a circle (dpdm, type-only imports aside).
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree } from 'dpdm';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const sources = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => join(here, f));

/** Who writes each part: the interface (or class) declaring the fields, and its one owner module. */
const OWNERS: Record<string, string> = {
  SessionPart: 'session-state.ts',
  LoadedQueue: 'session-state.ts',
  WindowPart: 'window-state.ts',
  TrackPart: 'track-state.ts',
  TrackPlayback: 'track-state.ts',
  ReportsPart: 'reports.ts',
  RequestsPart: 'requests-state.ts',
  SavedAsking: 'requests-state.ts',
  LoadPart: 'load-state.ts',
  PendingLoad: 'load-state.ts',
  MachinePart: 'player.ts',
};

/** A class's own file moves its private fields: that is the class, not a second writer. */
const OWN_FILES: Record<string, string> = { TrackPlayback: 'track-playback.ts' };

/** Calls that change the collection or playback they are made on. */
const MUTATORS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'add',
  'delete',
  'clear',
  'set',
  'play',
  'pause',
  'seek',
  'identify',
  'stopUpdates',
]);

interface Write {
  file: string;
  line: number;
  part: string;
  text: string;
}

/** The part a property (or a TrackPlayback method) belongs to, by where it is declared. */
function partOf(checker: ts.TypeChecker, node: ts.Node): string | undefined {
  const symbol = checker.getSymbolAtLocation(node);
  for (const declaration of symbol?.declarations ?? []) {
    const owner = declaration.parent;
    if (!ts.isInterfaceDeclaration(owner) && !ts.isClassDeclaration(owner)) continue;
    const name = owner.name?.text;
    if (name !== undefined && name in OWNERS) return name;
  }
  return undefined;
}

/** Where an expression written to names a part's field: `a.b` (the field b), `a[k]` (a's type). */
function targetPart(checker: ts.TypeChecker, target: ts.Expression): string | undefined {
  let node = target;
  while (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node) || ts.isAsExpression(node))
    node = node.expression;
  if (ts.isPropertyAccessExpression(node)) return partOf(checker, node.name);
  if (ts.isElementAccessExpression(node)) {
    const type = checker.getTypeAtLocation(node.expression);
    const name = (type.aliasSymbol ?? type.getSymbol())?.getName();
    return name && name in OWNERS ? name : undefined;
  }
  return undefined;
}

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

function partWrites(files: readonly string[], host?: ts.CompilerHost): Write[] {
  const program = ts.createProgram(
    files,
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    },
    host,
  );
  const checker = program.getTypeChecker();
  const writes: Write[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const note = (node: ts.Node, part: string | undefined) => {
      if (!part) return;
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      writes.push({ file: basename(file), line: line + 1, part, text: node.getText().split('\n')[0]! });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind))
        note(node, targetPart(checker, node.left));
      else if (
        (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
      )
        note(node, targetPart(checker, node.operand));
      else if (ts.isDeleteExpression(node)) note(node, targetPart(checker, node.expression));
      else if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        MUTATORS.has(node.expression.name.text)
      ) {
        const method = partOf(checker, node.expression.name);
        // A playback's own move (track.play()), or a change to a part's collection (fetched.add()).
        note(node, method === 'TrackPlayback' ? method : targetPart(checker, node.expression.expression));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return writes;
}

/** A module that is no part's owner writing parts, each reached another way: every write must be caught. */
const probe = join(here, 'owners-probe.ts');
const PROBE = [
  "import type { PlayerContext, TrackPart, WindowPart } from './context.js';",
  'export function stray(ctx: PlayerContext): void {',
  '  (ctx as unknown as TrackPart).atEdge = true;',
  '  const own = ctx as unknown as WindowPart;',
  "  own.fetched.add('x');",
  '  ctx.track?.pause(0);',
  '}',
].join('\n');

function probingHost(): ts.CompilerHost {
  const host = ts.createCompilerHost({});
  const read = host.readFile.bind(host);
  host.readFile = (name) => (name === probe ? PROBE : read(name));
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === probe || exists(name);
  return host;
}

/** Reading the whole folder with the checker takes a while on a busy machine. */
const SLOW = 180_000;

describe('the player\u2019s state has owners', () => {
  let all: Write[] = [];
  let writes: Write[] = [];
  beforeAll(() => {
    all = partWrites([...sources, probe], probingHost());
    writes = all.filter((w) => w.file !== 'owners-probe.ts');
  }, SLOW);

  it('finds the writes it looks for (the check reads what it should)', () => {
    // (A LoadedQueue is readonly and replaced whole: nothing writes its fields.)
    for (const [part, owner] of Object.entries(OWNERS).filter(([part]) => part !== 'LoadedQueue'))
      expect(
        writes.some((w) => w.part === part && w.file === owner),
        `no write to ${part} found in ${owner}`,
      ).toBe(true);
  });

  it('writes each part from its owner module only', () => {
    const strays = writes
      .filter((w) => w.file !== OWNERS[w.part] && !(w.part in OWN_FILES && w.file === OWN_FILES[w.part]))
      .map((w) => `${w.file}:${w.line} writes ${w.part} (owned by ${OWNERS[w.part]}): ${w.text}`);
    expect(strays).toEqual([]);
  });

  it('catches a second module writing a part, however it reaches it', () => {
    expect(all.filter((w) => w.file === 'owners-probe.ts').map((w) => w.part)).toEqual([
      'TrackPart',
      'WindowPart',
      'TrackPlayback',
    ]);
  });

  it(
    'has no import circle among its modules (type-only imports aside)',
    async () => {
      const tree = await parseDependencyTree(sources, {
        context: here,
        transform: true,
        skipDynamicImports: true,
        tsconfig: join(here, '..', '..', '..', 'tsconfig.json'),
      });
      // The imports resolve (`./flows.js` is flows.ts), or a circle could hide.
      expect(tree['effects.ts']?.map((dependency) => dependency.id)).toContain('flows.ts');
      // With player/ as the context its own files are named without a folder.
      const circles = parseCircular(tree).filter((circle) => circle.every((file) => !file.includes('/')));
      expect(circles).toEqual([]);
    },
    SLOW,
  );
});
