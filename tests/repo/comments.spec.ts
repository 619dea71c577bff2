import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

// A comment says why the code is as it is, in words that stay true: a ticket's number means nothing
// to whoever reads the code without the tracker, and nothing at all once the tracker moves. Every
// source file's comments are read as TypeScript reads them (never a string, a template or a regex
// that happens to hold `//`), a run of `//` lines as one text, so a number wrapped onto the next
// line is caught too.

const REPO = join(__dirname, '..', '..');
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIPPED = /(^|\/)(node_modules|dist|generated)\//;
const TICKET = /\b[Ii]ssues? #?\d+\b/;

/** The repository's source files, tracked or new (not ignored), that are still on disk. */
function sources(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  })
    .split('\n')
    .filter((path) => SOURCE.test(path) && !SKIPPED.test(path) && existsSync(join(REPO, path)));
}

function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (/\.(js|jsx|mjs|cjs)$/.test(path)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.TS;
}

/** Each comment of a file, a run of `//` lines joined, as its text without the comment marks and the line it starts on. */
function commentsOf(path: string, text: string): { line: number; text: string }[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, scriptKind(path));
  const ranges = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node) => {
    // A token's trivia holds the comments before it: those on the line after the previous token
    // ("trailing") and those on the lines below ("leading").
    if (node.kind <= ts.SyntaxKind.LastToken || node.kind === ts.SyntaxKind.EndOfFileToken) {
      for (const r of [...(ts.getTrailingCommentRanges(text, node.pos) ?? []), ...(ts.getLeadingCommentRanges(text, node.pos) ?? [])])
        ranges.set(r.pos, r);
    }
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  const runs: { pos: number; end: number; text: string }[] = [];
  for (const r of [...ranges.values()].sort((a, b) => a.pos - b.pos)) {
    const raw = text.slice(r.pos, r.end);
    const body =
      r.kind === ts.SyntaxKind.SingleLineCommentTrivia
        ? raw.slice(2)
        : raw
            .slice(2, -2)
            .split('\n')
            .map((line) => line.replace(/^\s*\*?/, ''))
            .join(' ');
    const last = runs.at(-1);
    if (
      last &&
      r.kind === ts.SyntaxKind.SingleLineCommentTrivia &&
      /^\/\//.test(text.slice(last.pos, last.pos + 2)) &&
      /^[ \t]*\r?\n[ \t]*$/.test(text.slice(last.end, r.pos))
    ) {
      last.end = r.end;
      last.text += ` ${body}`;
    } else {
      runs.push({ pos: r.pos, end: r.end, text: body });
    }
  }
  return runs.map((c) => ({ line: file.getLineAndCharacterOfPosition(c.pos).line + 1, text: c.text.replace(/\s+/g, ' ').trim() }));
}

describe('comments', () => {
  it('are found as TypeScript reads them, a wrapped run of // lines as one', () => {
    const text = [
      "const url = 'http://example.com/issue 12';",
      'const re = /issue 12/;',
      '// One sentence, wrapped onto the next (issue',
      '// 13), as a run.',
      'const n = 1; /* a block',
      ' * comment */',
    ].join('\n');
    expect(commentsOf('x.ts', text)).toEqual([
      { line: 3, text: 'One sentence, wrapped onto the next (issue 13), as a run.' },
      { line: 5, text: 'a block comment' },
    ]);
  });

  it('give the reason, not the ticket: none cites a bare "issue N"', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    const citing = files.flatMap((path) =>
      commentsOf(path, readFileSync(join(REPO, path), 'utf8'))
        .filter((c) => TICKET.test(c.text))
        .map((c) => `${path}:${c.line}: ${c.text.slice(0, 120)}`),
    );
    expect(citing).toEqual([]);
  });
});
